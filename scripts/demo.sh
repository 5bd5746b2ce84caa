#!/usr/bin/env bash
# The quick start: builds storedaemon, its workers and tcactl, starts the
# daemon on a private socket (it starts its three worker processes), sends a
# few actions and shows what each changed, lets the timer worker land a dice
# roll, shows the action log, then stops the daemon. Needs only the Swift
# toolchain, and no network.
#
# DEMO_BIN=DIR runs the programs already built in DIR instead of building
# (the tests run the demo that way).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -n "${DEMO_BIN:-}" ]]; then
  bin="$DEMO_BIN"
else
  echo "== building storedaemon, its workers and tcactl (the first build takes minutes)"
  for product in storedaemon effectworker effectworker-network tcactl; do
    swift build --quiet --product "$product"
  done
  bin="$(swift build --show-bin-path)"
fi

work="$(mktemp -d /tmp/storedaemon-demo-XXXXXX)"
export TCA_SOCKET="$work/storedaemon.sock"
cleanup() {
  [[ -n "${daemon:-}" ]] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# show NOTE ARGS...: prints the command line (with NOTE, if not empty), then runs it.
show() {
  local note="$1"
  shift
  echo
  echo "\$ tcactl $*${note:+   # $note}"
  "$bin/tcactl" "$@"
}

echo "== storedaemon starts on a private socket; it starts one worker process per effect kind"
"$bin/storedaemon" --socket "$TCA_SOCKET" --state-dir "$work/state" &
daemon=$!
# Wait until it serves and its three workers run.
running=0
for _ in $(seq 600); do
  running="$("$bin/tcactl" status --json 2>/dev/null | grep -o '"state":"running"' | wc -l || true)"
  [[ "$running" == 3 ]] && break
  sleep 0.1
done
if [[ "$running" != 3 ]]; then
  echo "demo: storedaemon did not start its three workers within 60 s; its messages are above" >&2
  exit 1
fi

show "the daemon and its effect workers" status
show "--wait: once its effects finish, what changed, old → new" send counter.incrementButtonTapped --wait
show "product 3 of the bundled catalog: no network needed" send cart.addItem 3 --wait
show "the die lands 0.5 s later, when the timer worker answers" send dice.view.rollButtonTapped --wait
show "the journal: when, who (#3's effects), what changed" log -n 3
echo
echo "== stopping the daemon"
