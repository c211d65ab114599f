"""The `ono99` command line: dispatches to the modules in `ono99tui.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Sub-command name -> module under ono99tui.commands. Order is the order shown in --help.
COMMANDS: dict[str, str] = {
    "solo": "solo",
    "host": "host",
    "join": "join",
    "list": "list_tables",
    "bot": "bot",
    "sim": "sim",
    "replay": "replay",
    "stats": "stats",
}


def build_parser() -> argparse.ArgumentParser:
    """Build the parser for every sub-command whose module is present."""
    parser = argparse.ArgumentParser(
        prog="ono99", description="ONO 99, the adding card game, in the terminal."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(f"ono99tui.commands.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"ono99tui.commands.{module_name}":
                raise
            continue
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `ono99` console script; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status = int(args.run(args) or 0)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `ono99 stats --json | head`: the reader has what it wanted. Point stdout at
        # nothing so the interpreter's own last flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
