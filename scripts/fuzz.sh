#!/usr/bin/env bash
# The fuzz run (docs/BENCHMARKS.md, "Fuzzing"): a release storedaemon with its
# workers, fuzzed frames from several connections, and one well-behaved client
# timing its requests throughout. Not part of `swift test`.
#
#   bash scripts/fuzz.sh                   # 10 minutes, 4 fuzzing connections
#   bash scripts/fuzz.sh --minutes 1       # a shorter run
#   bash scripts/fuzz.sh --seed 7          # another sequence of frames
#
# The last line states the frames sent, the crashes, the daemon's peak RSS,
# the client's p99 latency, the workers killed for a missed ping and the
# longest gap between watchdog pings; the exit status is 1 on a crash, a p99
# of 50 ms or more, a worker killed, or a gap of WatchdogSec or more.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release >&2
exec .build/release/storedaemon-bench --fuzz --no-redis "$@"
