#!/usr/bin/env bash
# The benchmark (docs/BENCHMARKS.md): storedaemon beside Redis and a raw
# AF_UNIX ping-pong, in one run, every figure printed with its reference,
# their ratio and its target.
#
#   bash scripts/bench.sh                  # the full run, a few minutes
#   bash scripts/bench.sh --smoke          # about a second per figure, nothing judged (CI)
#   bash scripts/bench.sh --markdown F     # also write the table to F
#
# Builds in release mode, and installs Debian's redis-server if it is missing
# (as root, or with sudo); without it, the run goes on without the reference.
# r, the journal replicated through etcd, needs /usr/bin/etcd (Debian's
# etcd-server, which this script does not install); without it r is skipped.
# Other options are storedaemon-bench's (`--help`).
set -euo pipefail
cd "$(dirname "$0")/.."

arguments=("$@")
if ! command -v redis-server >/dev/null 2>&1; then
  install=()
  if [ "$(id -u)" = 0 ]; then install=(env); elif command -v sudo >/dev/null 2>&1; then install=(sudo env); fi
  if [ ${#install[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench.sh: installing redis-server (Debian's package) for the reference figures" >&2
    "${install[@]}" DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || true
    "${install[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null || true
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "bench.sh: no redis-server, and it could not be installed; measuring without the reference" >&2
    arguments+=(--no-redis)
  fi
fi

swift build -c release >&2
exec .build/release/storedaemon-bench "${arguments[@]}"
