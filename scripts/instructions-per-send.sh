#!/usr/bin/env bash
# Counts the instructions the daemon runs per `tcactl send`, without the
# machine's noise: the daemon runs under callgrind (--spin 0 --fsync never)
# once with W + N sends and once with W, and the difference of the two
# totals is divided by N. The W sends of both runs (300 by default) pay
# what is done once, on an action's first run (the runtime's first lookups
# of its types, the first encoding of its part of the state), so the figure
# is what each further action costs. docs/BENCHMARKS.md, "Two builds side
# by side".
#
#   scripts/instructions-per-send.sh [--binaries DIR] [--sends N] [--warm-up W] [--action PATH] [--pipelined] [--redis]
#
# Each send is a `tcactl send`, a connection of its own; with --pipelined
# they go over one connection instead, 16 deep (a small python3 client of
# the wire protocol), so the figure is the daemon's work per action alone.
# With --redis, Redis's instructions per `INCR` are measured the same way
# beside it (redis-server under callgrind, W + N pipelined `INCR`s 16 deep
# over its Unix socket minus W), the reference the benchmark compares with.
set -euo pipefail

binaries=""
sends=300
warmup=300
action="counter.incrementButtonTapped"
pipelined=0
redis=0
while (($#)); do
  case "$1" in
    --binaries) binaries="$2"; shift ;;
    --sends) sends="$2"; shift ;;
    --warm-up) warmup="$2"; shift ;;
    --action) action="$2"; shift ;;
    --pipelined) pipelined=1 ;;
    --redis) redis=1 ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "instructions-per-send.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ "$sends" =~ ^[1-9][0-9]*$ ]] || { echo "instructions-per-send.sh: --sends takes a positive number, got '$sends'" >&2; exit 2; }
[[ "$warmup" =~ ^[0-9]+$ ]] || { echo "instructions-per-send.sh: --warm-up takes a number, got '$warmup'" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions-per-send.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
if ((pipelined || redis)); then
  command -v python3 >/dev/null || { echo "instructions-per-send.sh: --pipelined and --redis need python3" >&2; exit 2; }
fi
if ((redis)); then
  command -v redis-server >/dev/null || { echo "instructions-per-send.sh: --redis needs redis-server (apt-get install redis-server)" >&2; exit 2; }
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "$binaries" ]]; then
  (cd "$repo" && swift build -c release >/dev/null)
  binaries="$(cd "$repo" && swift build -c release --show-bin-path)"
fi
for program in storedaemon tcactl effectworker effectworker-network; do
  [[ -x "$binaries/$program" ]] || { echo "instructions-per-send.sh: no executable $binaries/$program" >&2; exit 2; }
done

# Sends $2 actions over one connection to the socket $1, 16 at a time
# unanswered, and waits for every acknowledgement (docs/PROTOCOL.md's frames
# and messages); any error ends it.
pipeline() {
  python3 - "$1" "$2" "$action" <<'PYTHON'
import json, socket, struct, sys
path, count, action = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
connection = socket.socket(socket.AF_UNIX)
connection.connect(path)
pending = b""
def write(message):
    payload = json.dumps(message).encode()
    connection.sendall(struct.pack(">I", len(payload)) + payload)
def read():
    global pending
    while True:
        if len(pending) >= 4:
            length = struct.unpack(">I", pending[:4])[0]
            if len(pending) >= 4 + length:
                message, pending = json.loads(pending[4:4 + length]), pending[4 + length:]
                return message
        data = connection.recv(65536)
        if not data:
            sys.exit("the daemon closed the connection")
        pending += data
write({"type": "hello", "protocol": 1, "client": "instructions-per-send"})
if read().get("type") != "welcome":
    sys.exit("no welcome")
sent = acknowledged = 0
while acknowledged < count:
    while sent < count and sent - acknowledged < 16:
        sent += 1
        write({"type": "send", "id": sent, "path": action[0], "arguments": action[1:]})
    message = read()
    if message.get("type") == "error":
        sys.exit(f"the daemon refused a send: {message}")
    if message.get("type") == "ack":
        acknowledged += 1
PYTHON
}

# Waits until the command after the first three arguments succeeds: $1 is
# the pid of a server started under valgrind, which takes seconds to serve
# (up to 10 minutes), $2 its name, $3 the directory of its valgrind.log.
await_serving() {
  local pid="$1" name="$2" dir="$3" tries=0
  shift 3
  until "$@" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if ((tries > 3000)) || ! kill -0 "$pid" 2>/dev/null; then
      echo "instructions-per-send.sh: $name did not start; see $dir/valgrind.log" >&2
      exit 1
    fi
    sleep 0.2
  done
}

# Stops the server of pid $1, prints the instructions callgrind counted in
# it (its output in the directory $2), and removes the directory.
stop_and_count() {
  kill -TERM "$1"
  wait "$1" || true
  grep -h "^summary:\|^totals:" "$2"/callgrind.out* | head -1 | awk '{print $2}'
  rm -rf "$2"
}

# The daemon's total instructions over a run with $1 sends.
total() {
  local count="$1" dir
  dir="$(mktemp -d)"
  valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" "$binaries/storedaemon" \
    --socket "$dir/s.sock" --state-dir "$dir/state" --spin 0 --fsync never --log-level error 2>"$dir/valgrind.log" &
  local daemon=$!
  await_serving "$daemon" "the daemon" "$dir" "$binaries/tcactl" --socket "$dir/s.sock" status
  if ((pipelined)); then
    pipeline "$dir/s.sock" "$count"
  else
    for ((i = 0; i < count; i++)); do "$binaries/tcactl" --socket "$dir/s.sock" send "$action" >/dev/null; done
  fi
  stop_and_count "$daemon" "$dir"
}

# Sends $2 `INCR`s to the Redis socket $1, 16 at a time unanswered, and
# reads every reply.
redis_pipeline() {
  python3 - "$1" "$2" <<'PYTHON'
import socket, sys
path, count = sys.argv[1], int(sys.argv[2])
connection = socket.socket(socket.AF_UNIX)
connection.connect(path)
command = b"*2\r\n$4\r\nINCR\r\n$7\r\ncounter\r\n"
pending = b""
sent = answered = 0
while answered < count:
    burst = min(16 - (sent - answered), count - sent)
    if burst > 0:
        connection.sendall(command * burst)
        sent += burst
    data = connection.recv(65536)
    if not data:
        sys.exit("redis closed the connection")
    pending += data
    lines = pending.split(b"\r\n")
    pending = lines.pop()
    for line in lines:
        if not line.startswith(b":"):
            sys.exit(f"redis refused an INCR: {line!r}")
        answered += 1
PYTHON
}

# Redis's total instructions over a run with $1 pipelined `INCR`s.
redis_total() {
  local count="$1" dir
  dir="$(mktemp -d)"
  valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" redis-server --port 0 \
    --unixsocket "$dir/r.sock" --save "" --appendonly no 2>"$dir/valgrind.log" >/dev/null &
  local server=$!
  await_serving "$server" "redis-server" "$dir" test -S "$dir/r.sock"
  redis_pipeline "$dir/r.sock" "$count"
  stop_and_count "$server" "$dir"
}

with="$(total "$((warmup + sends))")"
without="$(total "$warmup")"
how="tcactl send each"
if ((pipelined)); then how="pipelined 16 deep over one connection"; fi
echo "instructions per send: $(((with - without) / sends)) ($sends sends of $action after $warmup, $how; $with with, $without without)"
if ((redis)); then
  redis_with="$(redis_total "$((warmup + sends))")"
  redis_without="$(redis_total "$warmup")"
  echo "Redis instructions per INCR: $(((redis_with - redis_without) / sends)) ($sends INCRs after $warmup, pipelined 16 deep over its Unix socket; $redis_with with, $redis_without without)"
fi
