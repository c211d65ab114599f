"""`--player NAME`: the player's own name at the table, spelled and checked alike for
`ono99 solo`, `ono99 host`, `ono99 join` and `ono99 bot`.

The name is checked when the command runs, before anything opens, exactly as the table
checks a name (`netproto.wire.names.clean_name`): a bad one is one line, `ono99 join: --player:
a name may have at most 24 characters`, and exit status 2 (`PlayerNameError`). Not a
sub-command (cli.py maps none to it). Parsing imports only `netproto.wire.names`; the config
directory is read and written only when a command runs.
"""

from __future__ import annotations

import argparse

from netproto.wire.errors import BadName
from netproto.wire.names import clean_name
from ono99tui.i18n import N_, _

PLAYER_HELP = N_("your name at the table (remembered for next time)")  # shown translated


class PlayerNameError(ValueError):
    """A name given on the command line cannot be a player's name; the message names the
    option and says why, in the table's own words."""


def checked_player_name(raw: str | None, option: str = "--player") -> str | None:
    """The name as the table will show it (`clean_name`), or None when none was given;
    PlayerNameError says why a bad one cannot be used ("--player: a name may have at most
    24 characters")."""
    if raw is None:
        return None
    try:
        return clean_name(raw)
    except BadName as error:
        raise PlayerNameError(f"{option}: {error.reason}") from None


def add_player_option(
    parser: argparse.ArgumentParser, *aliases: str, dest: str = "player",
    help_text: str = PLAYER_HELP,
) -> None:
    """Add `--player NAME` (plus older spellings in `aliases`) as `args.<dest>`, default None,
    as typed: the command checks it with `checked_player_name` before anything starts."""
    parser.add_argument(
        "--player", *aliases, dest=dest, default=None, metavar="NAME", help=_(help_text),
    )


def remembered_player_name() -> str:
    """The name remembered in the config directory, cleaned; "" if none (or unusable)."""
    from ono99tui.user_settings import ConfigError, load_settings

    try:
        return clean_name(load_settings().player_name)
    except (ConfigError, BadName):
        return ""


def remember_player_name(name: str) -> str | None:
    """Remember `name` for next time, as the lobby does with a typed name.

    Returns None, or why it could not be written (the game goes on without it).
    """
    from dataclasses import replace

    from ono99tui.user_settings import ConfigError, Settings, load_settings, save_settings

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


def host_player_name(requested: str | None = None) -> str:
    """The host's own name at the table: `--player` (already checked), else the remembered
    one, else the login name (if it is a usable name), else "host"."""
    import getpass

    if requested:
        return requested
    remembered = remembered_player_name()
    if remembered:
        return remembered
    try:
        return clean_name(getpass.getuser())
    except (BadName, KeyError, OSError):
        return "host"
