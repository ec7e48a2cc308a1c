#!/usr/bin/env python3
"""Rewrites the --help blocks of docs/cli.md from the built binary.

usage: python3 scripts/update_cli_doc.py [BINARY] [--doc FILE]

Each block in the doc is a line `<!-- help: rushhour [COMMAND] --help -->` followed by a
```text fence holding that command's --help output verbatim. This script replaces every
block's text with the binary's current output and appends a section for each command that
`rushhour --help` lists but the doc lacks. A block of a command the binary no longer has is
reported (exit 1): delete its section by hand, with its prose. The ctest CliDoc.* fails
whenever a block and the binary disagree. Standard library only.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

MARKER = re.compile(r"^<!-- help: rushhour(?: (\S+))? --help -->$")


def help_text(binary, command):
    args = [binary] + ([command] if command else []) + ["--help"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"update_cli_doc.py: {' '.join(args)} exited {done.returncode}")
    return done.stdout


def listed_commands(top_help):
    """The subcommands under 'commands:' in `rushhour --help`."""
    commands, inside = [], False
    for line in top_help.splitlines():
        if line.strip() == "commands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            commands.append(line.split()[0])
    return commands


def block(command, text):
    body = text[:-1] if text.endswith("\n") else text
    return [f"<!-- help: rushhour{' ' + command if command else ''} --help -->", "```text",
            *body.split("\n"), "```"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("binary", nargs="?", default=str(root / "build" / "rushhour"))
    parser.add_argument("--doc", default=str(root / "docs" / "cli.md"))
    options = parser.parse_args()

    top = help_text(options.binary, "")
    commands = listed_commands(top)
    lines = Path(options.doc).read_text().split("\n")
    out, seen, stale = [], set(), []
    i = 0
    while i < len(lines):
        match = MARKER.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        command = match.group(1) or ""
        if i + 1 >= len(lines) or lines[i + 1] != "```text":
            sys.exit(f"update_cli_doc.py: {options.doc}:{i + 1}: marker without a ```text block")
        end = i + 2
        while end < len(lines) and lines[end] != "```":
            end += 1
        if command and command not in commands:
            stale.append(command)
            out.extend(lines[i:end + 1])
        else:
            out.extend(block(command, help_text(options.binary, command) if command else top))
        seen.add(command)
        i = end + 1
    for command in [""] + commands:
        if command not in seen:
            title = f"rushhour {command}" if command else "rushhour"
            out.extend(["", f"## `{title}`", "", *block(command, help_text(options.binary, command)
                                                        if command else top), ""])
    Path(options.doc).write_text("\n".join(out))
    if stale:
        sys.exit(f"update_cli_doc.py: the binary has no command {', '.join(stale)}: "
                 "delete its section of the doc by hand")


if __name__ == "__main__":
    main()
