"""`--player NAME`: the player's own name at the table, spelled and checked alike for
`ono99 solo`, `ono99 host` and `ono99 join`.

Not a sub-command (cli.py maps none to it). Parsing imports only `netproto.names`; the
config directory is read and written only when a command runs.
"""

from __future__ import annotations

import argparse

from netproto.errors import BadName
from netproto.names import clean_name

PLAYER_HELP = "your name at the table (remembered for next time)"


def player_name_argument(text: str) -> str:
    """argparse type of `--player`: the name as the table will show it, checked exactly as a
    name typed in the lobby (`netproto.names.clean_name`); a bad one is a usage error."""
    try:
        return clean_name(text)
    except BadName as error:
        raise argparse.ArgumentTypeError(error.reason) from None


def add_player_option(
    parser: argparse.ArgumentParser, *aliases: str, dest: str = "player", check: bool = True,
    help_text: str = PLAYER_HELP,
) -> None:
    """Add `--player NAME` (plus older spellings in `aliases`) as `args.<dest>`, default None.

    `check=False` leaves the name as typed: `ono99 join` checks it in the lobby, where a
    bad name can be corrected in place (the SSH door passes user names this way).
    """
    parser.add_argument(
        "--player", *aliases, dest=dest, default=None, metavar="NAME",
        type=player_name_argument if check else str, help=help_text,
    )


def remembered_player_name() -> str:
    """The name remembered in the config directory, cleaned; "" if none (or unusable)."""
    from ono99tui.config import ConfigError, load_settings

    try:
        return clean_name(load_settings().player_name)
    except (ConfigError, BadName):
        return ""


def remember_player_name(name: str) -> str | None:
    """Remember `name` for next time, as the lobby does with a typed name.

    Returns None, or why it could not be written (the game goes on without it).
    """
    from dataclasses import replace

    from ono99tui.config import ConfigError, Settings, load_settings, save_settings

    try:
        settings = load_settings()
    except ConfigError:
        settings = Settings()  # a damaged file is replaced, as the lobby does
    if settings.player_name == name:
        return None
    try:
        save_settings(replace(settings, player_name=name))
    except ConfigError as error:
        return str(error)
    return None
