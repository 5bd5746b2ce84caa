#!/usr/bin/env bash
# Makes the state directories the schema upgrade tests start from
# (Tests/StoreDaemonTests/Upgrade): each is what shelfd 1.0.0 (schema 1,
# Tests/UpgradeApp/ShelfV1) wrote, for shelfd 2.0.0 (ShelfV2) to migrate.
#
#   Tests/Fixtures/shelf-1.0.0-tail      the snapshot at version 0 and a
#       journal tail of 7 records after it; shelfd was killed with SIGKILL.
#   Tests/Fixtures/shelf-1.0.0-snapshot  a snapshot at version 6 covering
#       every record (a snapshot after every 6 records: a debug build's
#       STOREDAEMON_DEBUG_SNAPSHOT_RECORDS), stopped cleanly.
#
# Run from anywhere: bash Tests/UpgradeApp/make-fixtures.sh. The output is
# committed; run it again only if ShelfV1 changes (it must not: it is the
# build the fixtures stand for).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift build --product shelf-v1 >/dev/null
swift build --product tcactl >/dev/null
bin=$(swift build --show-bin-path)
fixtures="$root/Tests/Fixtures"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Starts shelf-v1 on state directory $1 (more environment in $2…) and waits
# for its socket.
start() {
  local dir=$1
  shift
  mkdir -p "$dir"
  env "$@" "$bin/shelf-v1" --state-dir "$dir" --socket "$dir/shelfd.sock" 2>"$dir.log" &
  pid=$!
  for _ in $(seq 1 600); do
    [ -S "$dir/shelfd.sock" ] && return
    sleep 0.1
  done
  echo "shelf-v1 did not start: $(cat "$dir.log")" >&2
  exit 1
}

send() {
  "$bin/tcactl" --app shelfd --socket "$dir/shelfd.sock" send "$@" >/dev/null
}

keep() {
  rm -rf "$fixtures/$1"
  mkdir -p "$fixtures/$1"
  cp -R "$work/$1/journal" "$fixtures/$1/journal"
  rm -f "$fixtures/$1/journal/lock"
  echo "$1: $(ls "$fixtures/$1/journal" | tr '\n' ' ')"
}

dir="$work/shelf-1.0.0-tail"
start "$dir"
send rename "Reading room"
send addBook Dune
send addBook Emma
send paint walnut
send lend ann
send removeBook 1
send addBook Persuasion
kill -KILL "$pid"
wait "$pid" || true
keep shelf-1.0.0-tail

dir="$work/shelf-1.0.0-snapshot"
start "$dir" STOREDAEMON_DEBUG_SNAPSHOT_RECORDS=6
send rename Attic
send addBook Middlemarch
send addBook "Bleak House"
send paint pine
send removeBook 2
send lend bob
kill -TERM "$pid"
wait "$pid"
keep shelf-1.0.0-snapshot
