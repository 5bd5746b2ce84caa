#!/usr/bin/env python3
"""Runs a Markdown tutorial as its reader would, and fails where it is wrong.

    scripts/run-tutorial.py [--keep] [--record] [--timeout MINUTES] docs/HOSTING.md

The tutorial is read in order, and each fenced block is one of:

- a file: a block right after a line that is only a bold path, **`PATH`**,
  is written to PATH (relative to the directory the commands are in then);
- commands: a ```sh block is run, in one bash shell for the whole tutorial
  (so `cd`, `export` and jobs started with `&` carry on), with `set -e`;
- what they print: a ```text block right after a ```sh block is what its
  commands must print, standard output and error as a terminal shows
  them, line for line, where `…` stands for any text (a time, a pid, a
  path) and two or more spaces for any run of spaces (a table's columns
  are as wide as what they hold).

Any other block is an error: every command a reader is shown is run.
With --record, outputs are not compared: each is printed as the ```text
block it would be, to write or update the tutorial's.

The shell runs as the reader would: in a scratch directory of its own as
$HOME, with storedaemon's checkout (this repository) at ~/src/storedaemon,
and with a systemd user manager of its own (`systemctl --user`), started in
a private mount namespace where /run/systemd/system exists, which is how
systemd tells it was booted. That takes root (for the namespace); as
another user the runner re-runs itself under `sudo -n`.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAPTION = re.compile(r"^\*\*`([^`]+)`\*\*$")
FENCE = re.compile(r"^(`{3,})(\S*)")


class TutorialError(Exception):
    """A tutorial the runner cannot run as written; the message says where and why."""


def parse(path):
    """The tutorial's steps, in order: ("file", line, path, text), ("sh", line, text, expected or None)."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    steps = []
    previous = None  # the last non-blank line outside a block
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            if lines[index].strip():
                previous = lines[index].strip()
            index += 1
            continue
        opening, language, start = fence.group(1), fence.group(2), index + 1
        end = start
        while end < len(lines) and lines[end].strip() != opening:
            end += 1
        if end == len(lines):
            raise TutorialError(f"{path}:{start}: the block opened here is never closed")
        body = "\n".join(lines[start:end]) + "\n"
        caption = CAPTION.match(previous or "")
        if caption:
            steps.append(("file", start, caption.group(1), body))
        elif language == "sh":
            steps.append(("sh", start, body, None))
        elif language == "text" and steps and steps[-1][0] == "sh" and previous is None:
            kind, line, commands, expected = steps[-1]
            if expected is not None:
                raise TutorialError(f"{path}:{start}: a second output block for the commands at line {line}")
            steps[-1] = (kind, line, commands, body)
        else:
            raise TutorialError(
                f"{path}:{start}: a ```{language} block that is neither a file (after a line **`PATH`**), "
                "commands (```sh) nor their output (```text right after them)")
        previous = None
        index = end + 1
    return steps


def literal(text):
    """A pattern for `text` as written, where a run of two or more spaces is any run of spaces."""
    return " +".join(re.escape(part) for part in re.split(r"  +", text))


def matches(expected, actual):
    """Whether `actual` is `expected` line for line, `…` in a line of `expected` standing for any text
    and two or more spaces for one or more."""
    expected_lines = expected.rstrip("\n").split("\n")
    actual_lines = actual.rstrip("\n").split("\n")
    if len(expected_lines) != len(actual_lines):
        return False
    for want, got in zip(expected_lines, actual_lines):
        pattern = "^" + ".*".join(literal(part) for part in want.rstrip().split("…")) + "$"
        if not re.match(pattern, got.rstrip()):
            return False
    return True


def script(steps, tutorial, work):
    """The bash script that runs `steps`: files written with here-documents, commands as written."""
    checker = shlex.quote(os.path.abspath(__file__))
    out = [
        "set -eo pipefail",
        "cd ~",
    ]
    for number, step in enumerate(steps, 1):
        if step[0] == "file":
            _, line, path, text = step
            marker = "TUTORIAL_FILE_END"
            if marker in text:
                raise TutorialError(f"{tutorial}:{line}: the file holds {marker}")
            out.append(f"echo {shlex.quote(f'== {tutorial}:{line}: writes {path}')}")
            out.append(f"mkdir -p \"$(dirname {shlex.quote(path)})\"")
            out.append(f"cat > {shlex.quote(path)} <<'{marker}'\n{text}{marker}")
            continue
        _, line, commands, expected = step
        out.append(f"echo {shlex.quote(f'== {tutorial}:{line}: runs')}")
        out.append("sed 's/^/$ /' <<'TUTORIAL_COMMANDS_END'\n" + commands + "TUTORIAL_COMMANDS_END")
        if expected is None:
            out.append(commands)
            continue
        printed = os.path.join(work, f"printed-{number}")
        wanted = os.path.join(work, f"expected-{number}")
        with open(wanted, "w", encoding="utf-8") as handle:
            handle.write(expected)
        # What the block prints, on either stream as a terminal shows both,
        # goes to a file (not a pipe, which a job it starts would hold
        # open), then to the log, then is compared.
        out.append("{\n" + commands + "} > " + shlex.quote(printed) + " 2>&1")
        out.append(f"cat {shlex.quote(printed)}")
        out.append(
            f"python3 {checker} --compare {shlex.quote(wanted)} {shlex.quote(printed)} "
            f"--where {shlex.quote(f'{tutorial}:{line}')}")
    return "\n".join(out) + "\n"


# What runs inside the private mount namespace: systemd's marker directory,
# the user manager, the tutorial, and the manager stopped at the end.
PRELUDE = r"""
set -eo pipefail
mount -t tmpfs -o mode=0755 tmpfs /run/systemd
mkdir -p /run/systemd/system
/lib/systemd/systemd --user --log-target=console >"$TUTORIAL_WORK/systemd.log" 2>&1 &
manager=$!
stop_manager() {
  status=$?
  kill -TERM "$manager" 2>/dev/null || true
  wait "$manager" 2>/dev/null || true
  if [ "$status" != 0 ]; then
    echo "== the user manager's log ($TUTORIAL_WORK/systemd.log), last lines:"
    tail -n 40 "$TUTORIAL_WORK/systemd.log" || true
  fi
  exit "$status"
}
trap stop_manager EXIT
# Wait for the manager to answer (generously: the machine may be busy).
for attempt in $(seq 1 1200); do
  state="$(systemctl --user is-system-running 2>/dev/null || true)"
  case "$state" in running | degraded) break ;; esac
  if ! kill -0 "$manager" 2>/dev/null; then echo "the user manager exited; see its log" >&2; exit 1; fi
  sleep 0.1
done
case "$state" in running | degraded) ;; *) echo "the user manager did not start (state: ${state:-none})" >&2; exit 1 ;; esac
bash -e "$TUTORIAL_WORK/tutorial.sh"
"""


def run(tutorial, keep, record, timeout_minutes):
    steps = parse(tutorial)
    if not any(step[0] == "sh" for step in steps):
        raise TutorialError(f"{tutorial}: no ```sh block to run")
    work = tempfile.mkdtemp(prefix="tutorial.")
    home = os.path.join(work, "home")
    runtime = os.path.join(work, "run")
    os.makedirs(os.path.join(home, "src"))
    os.mkdir(runtime, 0o700)
    os.symlink(REPOSITORY, os.path.join(home, "src", "storedaemon"))
    with open(os.path.join(work, "tutorial.sh"), "w", encoding="utf-8") as handle:
        handle.write(script(steps, os.path.relpath(tutorial, REPOSITORY), work))
    environment = {
        "HOME": home,
        "XDG_RUNTIME_DIR": runtime,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "USER": "root",
        "TUTORIAL_WORK": work,
    }
    if record:
        environment["TUTORIAL_RECORD"] = "1"
    print(f"running {tutorial}: {sum(1 for s in steps if s[0] == 'sh')} command blocks, "
          f"{sum(1 for s in steps if s[0] == 'file')} files, in {work}", flush=True)
    try:
        result = subprocess.run(
            ["unshare", "--mount", "--propagation", "private", "bash", "-c", PRELUDE],
            env=environment, cwd=home, timeout=timeout_minutes * 60)
    except subprocess.TimeoutExpired:
        print(f"run-tutorial.py: {tutorial} did not finish within {timeout_minutes} minutes", file=sys.stderr)
        return 1
    if result.returncode != 0:
        print(f"run-tutorial.py: {tutorial} failed (status {result.returncode}); its files are in {work}",
              file=sys.stderr)
        return 1
    print(f"run-tutorial.py: every step of {tutorial} ran as written")
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def compare(wanted_path, printed_path, where):
    with open(wanted_path, encoding="utf-8") as handle:
        wanted = handle.read()
    with open(printed_path, encoding="utf-8", errors="replace") as handle:
        printed = handle.read()
    if os.environ.get("TUTORIAL_RECORD"):
        print(f"== recorded output of {where}:\n```text\n{printed}```", flush=True)
        return 0
    if matches(wanted, printed):
        return 0
    print(f"run-tutorial.py: {where}: the commands printed something else than the tutorial shows.\n"
          f"-- the tutorial shows (… is any text):\n{wanted}-- they printed:\n{printed}", file=sys.stderr)
    return 1


def main():
    parser = argparse.ArgumentParser(description="Runs a Markdown tutorial's files and commands in order.")
    parser.add_argument("tutorial", nargs="?", help="the Markdown file")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory after a success")
    parser.add_argument("--record", action="store_true", help="print each output instead of comparing it")
    parser.add_argument("--timeout", type=float, default=60, help="minutes the whole run may take (default 60)")
    parser.add_argument("--compare", nargs=2, metavar=("EXPECTED", "PRINTED"), help=argparse.SUPPRESS)
    parser.add_argument("--where", default="", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.compare:
        return compare(*arguments.compare, arguments.where)
    if not arguments.tutorial:
        parser.error("give the tutorial's Markdown file")
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            print("run-tutorial.py: needs root (for a private mount namespace for systemd), and there is no sudo",
                  file=sys.stderr)
            return 2
        return subprocess.call(["sudo", "-n", "env", f"PATH={os.environ.get('PATH', '')}", sys.executable,
                                os.path.abspath(__file__)] + sys.argv[1:])
    for tool in ("unshare", "systemctl", "/lib/systemd/systemd"):
        if shutil.which(tool) is None and not os.access(tool, os.X_OK):
            print(f"run-tutorial.py: needs {tool} (Debian's util-linux and systemd packages)", file=sys.stderr)
            return 2
    try:
        return run(os.path.abspath(arguments.tutorial), arguments.keep, arguments.record, arguments.timeout)
    except TutorialError as error:
        print(f"run-tutorial.py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
