"""`--plain` (with `--color`, `--bell`) and `--high-contrast`: line mode for screen readers
and braille (`ono99tui.line`), and the full-screen app's high-contrast theme, spelled alike
for `ono99 join`, `ono99 solo` and `ono99 host`. Not a sub-command.

`ONO99_PLAIN=1` and `ONO99_HIGH_CONTRAST=1` in the environment ask for them too: a player
reaching the SSH door sends them with OpenSSH's `SendEnv` (docs/ACCESSIBILITY.md).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from ono99tui.access import HIGH_CONTRAST_ENV, PLAIN_ENV, asked_by_environment
from ono99tui.i18n import _

if TYPE_CHECKING:
    from ono99tui.line.start import LineSettings

__all__ = ["PLAIN_ENV", "add_plain_options", "line_settings", "use_high_contrast",
           "wants_plain"]


def add_plain_options(parser: argparse.ArgumentParser) -> None:
    """`--plain`, `--color` and `--bell`."""
    parser.add_argument("--plain", action="store_true",
                        help=_("line mode for screen readers and braille: one sentence per event, "
                               "a numbered hand, typed commands (also ONO99_PLAIN=1)"))
    parser.add_argument("--color", action="store_true",
                        help=_("with --plain: colour a few lines (no escape sequences without it)"))
    parser.add_argument("--bell", action="store_true",
                        help=_("with --plain: ring the terminal's bell on your turn"))
    parser.add_argument("--high-contrast", action="store_true",
                        help=_("the full-screen app in white and yellow on black (also "
                               "ONO99_HIGH_CONTRAST=1)"))


def wants_plain(args: argparse.Namespace) -> bool:
    """Line mode: `--plain`, or ONO99_PLAIN set to something other than 0 or empty."""
    return bool(args.plain) or asked_by_environment(PLAIN_ENV)


def use_high_contrast(args: argparse.Namespace) -> None:
    """`--high-contrast`: the app reads it from the environment (as from an SSH client's),
    so the flag sets it for this process."""
    if args.high_contrast:
        os.environ[HIGH_CONTRAST_ENV] = "1"


def line_settings(args: argparse.Namespace) -> LineSettings:
    """How line mode writes, from the options."""
    from ono99tui.line.start import LineSettings

    return LineSettings(color=bool(args.color), bell=bool(args.bell))
