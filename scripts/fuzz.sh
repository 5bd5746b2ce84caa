#!/usr/bin/env bash
# The fuzz run (docs/BENCHMARKS.md, "Fuzzing"): a storedaemon with its
# workers, fuzzed frames and valid and spoilt sends of every action it lists
# from several connections, and one well-behaved client timing its requests
# throughout; then `verify` replays the journal. Not part of `swift test`.
#
#   bash scripts/fuzz.sh                   # 10 minutes of a release build, 4 fuzzing connections
#   bash scripts/fuzz.sh --minutes 1       # a shorter run
#   bash scripts/fuzz.sh --seed 7          # another sequence of frames
#   bash scripts/fuzz.sh --debug --actions-only --no-latency-target --minutes 1 --seed 41
#                                          # what CI runs: a debug build (assertions on),
#                                          # the app's actions only, timing reported only
#   bash scripts/fuzz.sh --debug --actions-only --no-latency-target --todos
#                                          # the same against Examples/Todos' todosd (built
#                                          # there first: cd Examples/Todos && swift build)
#
# The last line states the frames sent, the crashes, the daemon's peak RSS,
# the client's p99 latency, the workers killed for a missed ping, the longest
# gap between watchdog pings and whether verify reproduced the journal; the
# line before it, how the app's actions were answered. The exit status is 1
# on a crash, an action answered wrongly (a spoilt one taken, any one not
# answered with an acknowledgement or a refusal), a p99 of 50 ms or more, a
# worker killed, a gap of WatchdogSec or more, or verify failing.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
arguments=()
for argument in "$@"; do
  case "$argument" in
    --debug) configuration=debug ;;
    --todos)
      arguments+=(--binaries "$PWD/Examples/Todos/.build/debug" --daemon todosd
        --worker "export=$PWD/Examples/Todos/Workers/todos-export") ;;
    *) arguments+=("$argument") ;;
  esac
done
swift build -c "$configuration" --product storedaemon-bench >&2
swift build -c "$configuration" >&2
exec ".build/$configuration/storedaemon-bench" --fuzz --no-redis "${arguments[@]}"
