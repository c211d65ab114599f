"""`--plain` and `--color`: line mode for screen readers and braille (`ono99tui.line`),
spelled alike for `ono99 join`, `ono99 solo` and `ono99 host`. Not a sub-command.

`ONO99_PLAIN=1` in the environment asks for line mode too: a player reaching the SSH door
sends it with OpenSSH's `SendEnv` (docs/ACCESSIBILITY.md).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ono99tui.line import PLAIN_ENV

if TYPE_CHECKING:
    from ono99tui.line.start import LineSettings

__all__ = ["PLAIN_ENV", "add_plain_options", "line_settings", "wants_plain"]


def add_plain_options(parser: argparse.ArgumentParser) -> None:
    """`--plain`, `--color` and `--bell`."""
    parser.add_argument("--plain", action="store_true",
                        help="line mode for screen readers and braille: one sentence per "
                             "event, a numbered hand, typed commands (also ONO99_PLAIN=1)")
    parser.add_argument("--color", action="store_true",
                        help="with --plain: colour a few lines (no escape sequences without it)")
    parser.add_argument("--bell", action="store_true",
                        help="with --plain: ring the terminal's bell on your turn")


def wants_plain(args: argparse.Namespace) -> bool:
    """Line mode: `--plain`, or ONO99_PLAIN set to something other than 0 or empty."""
    return bool(args.plain) or os.environ.get(PLAIN_ENV, "") not in ("", "0")


def line_settings(args: argparse.Namespace) -> LineSettings:
    """How line mode writes, from the options."""
    from ono99tui.line.start import LineSettings

    return LineSettings(color=bool(args.color), bell=bool(args.bell))
