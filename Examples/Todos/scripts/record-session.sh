#!/usr/bin/env bash
# Records a session of todosd as `tcactl log --json` prints it, into
# Tests/Recordings/session.jsonl: the journal TodosTests replays as a
# regression test (RecordedSessionTests). Run it again, and commit the new
# recording, when a change to the reducers is meant to change what they do
# with it; the test then pins the new behaviour.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin/todosd" --state-dir "$work/state" --socket "$work/todosd.sock" --worker "export=$PWD/Workers/todos-export" \
  2>"$work/todosd.log" &
pid=$!
tcactl() { "$bin/tcactl" --socket "$work/todosd.sock" "$@"; }
for _ in $(seq 1 600); do tcactl status >/dev/null 2>&1 && break; sleep 0.1; done
row() { tcactl get --json "todos.$1.id" | tr -d '"'; }

tcactl send addTodoButtonTapped >/dev/null
tcactl send addTodoButtonTapped >/dev/null
tcactl send addTodoButtonTapped >/dev/null
tcactl send "todos[$(row 0)].binding.title" "Write the migration" >/dev/null
tcactl send "todos[$(row 1)].binding.title" "Run verify" >/dev/null
tcactl send "todos[$(row 2)].binding.title" "Deploy" >/dev/null
tcactl send "todos[$(row 0)].checkBoxToggled" --wait >/dev/null
tcactl send filterPicked completed >/dev/null
tcactl send "todos[$(row 0)].checkBoxToggled" --wait >/dev/null
tcactl send filterPicked all >/dev/null
tcactl send delete "$(row 2)" >/dev/null
tcactl send clearCompletedButtonTapped >/dev/null
tcactl log --json -n 1000 >Tests/Recordings/session.jsonl
echo "recorded $(wc -l <Tests/Recordings/session.jsonl) versions in Tests/Recordings/session.jsonl"
