#!/usr/bin/env bash
# Counts the instructions the daemon runs per `tcactl send`, without the
# machine's noise: the daemon runs under callgrind (--spin 0 --fsync never)
# once with N sends and once with none, and the difference of the two totals
# is divided by N. docs/BENCHMARKS.md, "Comparing two builds".
#
#   scripts/instructions-per-send.sh [--binaries DIR] [--sends N] [--action PATH]
set -euo pipefail

binaries=""
sends=300
action="counter.incrementButtonTapped"
while (($#)); do
  case "$1" in
    --binaries) binaries="$2"; shift ;;
    --sends) sends="$2"; shift ;;
    --action) action="$2"; shift ;;
    -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "instructions-per-send.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ "$sends" =~ ^[1-9][0-9]*$ ]] || { echo "instructions-per-send.sh: --sends takes a positive number, got '$sends'" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions-per-send.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -z "$binaries" ]]; then
  (cd "$repo" && swift build -c release >/dev/null)
  binaries="$(cd "$repo" && swift build -c release --show-bin-path)"
fi
for program in storedaemon tcactl effectworker effectworker-network; do
  [[ -x "$binaries/$program" ]] || { echo "instructions-per-send.sh: no executable $binaries/$program" >&2; exit 2; }
done

# The daemon's total instructions over a run with $1 sends.
total() {
  local count="$1" dir
  dir="$(mktemp -d)"
  valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" "$binaries/storedaemon" \
    --socket "$dir/s.sock" --state-dir "$dir/state" --spin 0 --fsync never --log-level error 2>"$dir/valgrind.log" &
  local daemon=$!
  # Under valgrind the daemon takes seconds to serve; wait for it (up to 10 minutes).
  local tries=0
  until "$binaries/tcactl" --socket "$dir/s.sock" status >/dev/null 2>&1; do
    tries=$((tries + 1))
    if ((tries > 3000)) || ! kill -0 "$daemon" 2>/dev/null; then
      echo "instructions-per-send.sh: the daemon did not start; see $dir/valgrind.log" >&2
      exit 1
    fi
    sleep 0.2
  done
  for ((i = 0; i < count; i++)); do "$binaries/tcactl" --socket "$dir/s.sock" send "$action" >/dev/null; done
  kill -TERM "$daemon"
  wait "$daemon" || true
  grep -h "^summary:\|^totals:" "$dir"/callgrind.out* | head -1 | awk '{print $2}'
  rm -rf "$dir"
}

with="$(total "$sends")"
without="$(total 0)"
echo "instructions per send: $(((with - without) / sends)) ($sends sends of $action; $with with, $without without)"
