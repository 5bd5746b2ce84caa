#!/usr/bin/env python3
"""Keeps the daemon's read paths free of traps (issue 41, item 2).

Nothing a client, a worker, a file (journal, snapshot, configuration, tokens
file) or a flag sends may trap the daemon or its tools: every read path
answers with a typed error that says what was expected. This check fails,
listing file:line, for every trap in the read paths that is not marked as an
invariant of the code's own:

  assert(…), assertionFailure(…), precondition(…), preconditionFailure(…),
  fatalError(…), try!, as!, and the force unwrap `x!` (an implicitly
  unwrapped optional `T!` counts too).

A trap that input cannot reach stays, marked by a comment that says why:
`// invariant: <why input cannot reach this>`, on the trap's line or in the
run of `//` comment lines right above it. `as! T` right after a
`T.self == X.self` identity check is such an invariant, and is marked like
the rest, so that every trap left in a read path carries its reason.

The read paths are every product module under Sources/, which is where a
client's frame, a worker's reply, a file or a flag is read and acted on:
Platform (sockets, files, command lines), JSON, Wire, HTTP, Journal, Replay,
Replication, ComposableCore (the store and the collections decoded state
lives in), ActionLanguage, Features (the seed apps' reducers, which reduce
what clients and workers send), StoreDaemon, SeedApps, EffectWorkers,
tcactl and WebClient; and the example app's sources (Examples/*/Sources),
which the daemon hosts the same way. Left out: ComposableTesting (the test
store, whose traps are test failures by design), the benchmarks
(StoreBenchmark, JournalBenchmark: tools driven by their own fixtures) and
CLinux (a module map).

Python rather than grep: a trap's name in a comment or a string literal is
not a trap, while one in a string's interpolation is, and `!=` is not a
force unwrap; the check reads Swift's comments and literals to tell them
apart (--self-test shows the cases).

Run from anywhere: python3 scripts/check-traps.py [--self-test] [paths…]
(paths default to the read paths above). .ci/run runs it before the build.
Exit status 0 when clean, 1 with the list otherwise.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXCLUDED_MODULES = {"ComposableTesting", "StoreBenchmark", "JournalBenchmark", "CLinux"}

CALL = re.compile(r"(?<![\w.])(assert|assertionFailure|precondition|preconditionFailure|fatalError)\s*\(")
TRY_OR_AS = re.compile(r"(?<![\w.])(try|as)!")
FORCE_UNWRAP = re.compile(r"(?<=[\w)\]])!(?!=)")
MARKER = re.compile(r"//\s*invariant:")
COMMENT_LINE = re.compile(r"^\s*//")


def read_paths():
    """The Swift files of the read paths (see the header)."""
    roots = []
    sources = os.path.join(ROOT, "Sources")
    for module in sorted(os.listdir(sources)):
        if module not in EXCLUDED_MODULES and os.path.isdir(os.path.join(sources, module)):
            roots.append(os.path.join(sources, module))
    examples = os.path.join(ROOT, "Examples")
    if os.path.isdir(examples):
        for example in sorted(os.listdir(examples)):
            path = os.path.join(examples, example, "Sources")
            if os.path.isdir(path):
                roots.append(path)
    return roots


def swift_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for directory, subdirectories, files in os.walk(path):
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def code_only(text):
    """`text` with comments and the contents of string literals blanked
    (newlines kept, so lines and columns stay), interpolations left as code.

    Handles `//` and nested `/* */` comments, "…", multi-line \"\"\"…\"\"\",
    raw strings (#"…"#, with \\#( interpolation) and interpolations nesting
    strings of their own.
    """
    out = list(text)
    n = len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    # Each open interpolation: the string it is in, and its parenthesis depth.
    interpolations = []
    string = None  # (multiline, hashes) while inside a string literal
    i = 0
    while i < n:
        c = text[i]
        if string is None:
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
            elif text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                blank(i, j)
                i = j
            elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
                hashes = len(re.match(r"#*", text[i:]).group(0))
                j = i + hashes
                multiline = text.startswith('"""', j)
                j += 3 if multiline else 1
                string = (multiline, hashes)
                i = j
            elif c == "(" and interpolations:
                interpolations[-1][1] += 1
                i += 1
            elif c == ")" and interpolations:
                if interpolations[-1][1] == 0:
                    string = interpolations.pop()[0]
                else:
                    interpolations[-1][1] -= 1
                i += 1
            else:
                i += 1
        else:
            multiline, hashes = string
            escape = "\\" + "#" * hashes
            close = ('"""' if multiline else '"') + "#" * hashes
            if text.startswith(escape, i):
                j = i + len(escape)
                if j < n and text[j] == "(":
                    blank(i, j + 1)
                    interpolations.append([string, 0])
                    string = None
                    i = j + 1
                else:
                    blank(i, j + 1)
                    i = j + 1
            elif text.startswith(close, i):
                string = None
                i += len(close)
            elif c == "\n" and not multiline:
                # An unterminated literal: go on as code rather than lose the file.
                string = None
                i += 1
            else:
                blank(i, i + 1)
                i += 1
    return "".join(out)


def traps(text):
    """(line number, what) for each trap in Swift source `text`."""
    found = []
    for number, line in enumerate(code_only(text).split("\n"), start=1):
        taken = set()
        for match in CALL.finditer(line):
            found.append((number, match.group(1) + "(…)"))
        for match in TRY_OR_AS.finditer(line):
            found.append((number, match.group(1) + "!"))
            taken.add(match.end() - 1)
        for match in FORCE_UNWRAP.finditer(line):
            if match.start() not in taken:
                found.append((number, "force unwrap"))
    return found


def is_marked(lines, number):
    """Whether line `number` (1-based) or the `//` comment lines right above it say `invariant:`."""
    if MARKER.search(lines[number - 1]):
        return True
    k = number - 2
    while k >= 0 and COMMENT_LINE.match(lines[k]):
        if MARKER.search(lines[k]):
            return True
        k -= 1
    return False


def unmarked(path):
    with open(path, encoding="utf-8") as file:
        text = file.read()
    lines = text.split("\n")
    return [(number, what, lines[number - 1].strip()) for number, what in traps(text) if not is_marked(lines, number)]


def self_test():
    cases = [
        ('let a = b!', ["force unwrap"]),
        ('let a = f()!.g', ["force unwrap"]),
        ('let a = d[k]!', ["force unwrap"]),
        ('if a != b, !c {}', []),
        ('let s = "wow!"', []),
        ('let s = "\\(x!) and \\("y!")"', ["force unwrap"]),
        ('let s = #"a "quoted"! \\(x!) \\#(y!)"#', ["force unwrap"]),
        ('let s = """\n  wow! "\\(z!)"\n  """', ["force unwrap"]),
        ('// precondition(x)\nlet a = 1 /* b! */', []),
        ('/* outer /* inner */ x! */ let y = 2', []),
        ('precondition(x, "no")', ["precondition(…)"]),
        ('store.assert(x)', []),
        ('let v = try! f()', ["try!"]),
        ('let v = x as! Int', ["as!"]),
        ('var name: String!', ["force unwrap"]),
        ('guard x else { fatalError("a \\(b)") }', ["fatalError(…)"]),
    ]
    failures = 0
    for source, expected in cases:
        got = [what for _, what in traps(source)]
        if got != expected:
            failures += 1
            print(f"self-test: {source!r} gives {got}, expected {expected}", file=sys.stderr)
    marked = "// invariant: the key was just checked\n// (more words)\nlet a = d[k]!\nlet b = c!  // invariant: set above"
    lines = marked.split("\n")
    if [number for number, _ in traps(marked) if not is_marked(lines, number)]:
        failures += 1
        print("self-test: a marked trap is reported", file=sys.stderr)
    if failures:
        sys.exit(1)
    print("check-traps: self-test passed")


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        self_test()
        return
    paths = arguments or read_paths()
    reports = []
    for path in swift_files(paths):
        for number, what, line in unmarked(path):
            reports.append(f"{os.path.relpath(path, ROOT)}:{number}: {what}: {line}")
    if reports:
        print("\n".join(reports))
        print(
            f"\ncheck-traps: {len(reports)} trap(s) on the read paths. Input (a client, a worker, a file, a flag) "
            "must get a typed error that says what was expected; a trap that only the code's own invariants "
            "reach stays, marked `// invariant: <why input cannot reach it>` on its line or in the comment "
            "right above (scripts/check-traps.py says why and where).",
            file=sys.stderr,
        )
        sys.exit(1)
    print("check-traps: no unmarked traps on the read paths")


if __name__ == "__main__":
    main(sys.argv[1:])
