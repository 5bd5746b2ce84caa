#!/usr/bin/env bash
# The quick start: builds storedaemon, its workers and tcactl, starts the
# daemon on a private socket (it starts its three worker processes), watches
# the state live while a few actions are sent, prints the cart, then stops the
# daemon. Needs only the Swift toolchain, and no network.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product storedaemon
swift build --product tcactl
swift build --product effectworker
swift build --product effectworker-network
bin="$(swift build --show-bin-path)"

work="$(mktemp -d /tmp/storedaemon-demo-XXXXXX)"
export TCA_SOCKET="$work/storedaemon.sock"
cleanup() {
  [[ -n "${watcher:-}" ]] && kill "$watcher" 2>/dev/null || true
  [[ -n "${daemon:-}" ]] && kill -TERM "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$bin/storedaemon" --socket "$TCA_SOCKET" --state-dir "$work/state" &
daemon=$!
for _ in $(seq 100); do "$bin/tcactl" status >/dev/null 2>&1 && break; sleep 0.1; done

echo "== tcactl status (the daemon and its effect workers)"
"$bin/tcactl" status

echo "== tcactl watch (live, in the background)"
"$bin/tcactl" watch &
watcher=$!
sleep 0.5

echo "== tcactl send cart.addItem 3"
"$bin/tcactl" send cart.addItem 3
sleep 0.2
echo "== tcactl send counter.incrementButtonTapped"
"$bin/tcactl" send counter.incrementButtonTapped
sleep 0.2
echo "== tcactl send dice.view.rollButtonTapped --wait (the timer worker lands the roll after 500 ms)"
"$bin/tcactl" send dice.view.rollButtonTapped --wait
sleep 0.2
echo "== a BMI entry, saved durably by the storage worker"
"$bin/tcactl" send bmi.input.binding.height 180
"$bin/tcactl" send bmi.input.binding.weight 75
"$bin/tcactl" send bmi.input.saveButtonTapped --wait
sleep 0.2

echo "== tcactl get cart.items (product 3 from the bundled catalog, no network needed)"
"$bin/tcactl" get cart.items
echo "== tcactl log -n 4 (the journal: when, who, what changed) and get --at 1 (the state back then)"
"$bin/tcactl" log -n 4
"$bin/tcactl" get cart.items --at 1 --json
echo "== done: stopping the daemon"
