"""The game's own options on the command line, spelled and checked alike by every command.

`--rules PRESET` (solo, host, sim), `--set OPTION=VALUE` (sim) and bot levels (`--level`
with its older spelling `--bot`: solo, host, bot; `--bots` of sim): each is
checked once, here, when the command runs, and a bad value is one `GameOptionError` whose
message the command prints after its name (exit status 2). Not a sub-command (cli.py maps
none to it). Building the parser imports only `ono99tui.game.rules` (standard library).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ono99tui.game.rules import DEFAULT_PRESET, PRESET_NAMES
from ono99tui.i18n import N_, _

if TYPE_CHECKING:
    from ono99tui.game import Rules


class GameOptionError(ValueError):
    """A rules preset, rule setting or bot kind the game does not have; the message says
    which, and what there is."""


def add_rules_option(parser: argparse.ArgumentParser, *, settings: bool = False) -> None:
    """Add `--rules PRESET` (the engine's presets) and, with `settings`, the repeatable
    `--set OPTION=VALUE` (in `args.set`) that overrides single rule options."""
    parser.add_argument(
        "--rules", default=DEFAULT_PRESET, metavar="PRESET",
        help=_("rules preset: {presets} (default {default_preset})").format(
            presets=', '.join(PRESET_NAMES), default_preset=DEFAULT_PRESET),
    )
    if settings:
        parser.add_argument(
            "--set", action="append", default=[], metavar="OPTION=VALUE",
            help=_("override a rule option, e.g. --set scoring=points-lowest (repeatable)"),
        )


def rule_value(text: str) -> object:
    """A rule option's value as typed: an int, a boolean, a comma-separated list, or text."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    if "," in text:
        return [item.strip() for item in text.split(",") if item.strip()]
    return text


def rule_settings(items: Iterable[str]) -> dict[str, object]:
    """`--set OPTION=VALUE` items as {option: value}; raises GameOptionError on a bad item."""
    settings: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise GameOptionError(_("--set needs OPTION=VALUE, not {item!r}").format(item=item))
        settings[name.strip()] = rule_value(value.strip())
    return settings


def checked_rules(preset_name: str, settings: Mapping[str, Any] | None = None) -> Rules:
    """The rules of `--rules` with `settings` applied; GameOptionError says what is wrong
    (an unknown preset: "unknown rules preset 'x'; valid presets: 2022, 1980, 1980-set99")."""
    from ono99tui.game import InvalidRules, UnknownPreset, preset

    try:
        rules = preset(preset_name)
        return rules.replace(**settings) if settings else rules
    except UnknownPreset as error:
        raise GameOptionError(_("unknown rules preset {name!r}; valid presets: {valid}").format(
            name=error.name, valid=", ".join(error.valid))) from None
    except InvalidRules as error:
        raise GameOptionError(str(error)) from None


# The level a bot plays at unless told otherwise (the greedy bot).
DEFAULT_LEVEL = "normal"
LEVEL_HELP = N_("easy, normal or hard (also the kinds random and greedy; normal is greedy)")


def add_level_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Add `--level LEVEL` (in `args.bot`; `--bot` is its older spelling); `help_text` says
    whose level, a whole sentence with `{levels}` and `{default}` ("level of the bots:
    {levels} (default {default})"), translated. Checked by `checked_bot_kind` when the
    command runs."""
    parser.add_argument(
        "--level", "--bot", dest="bot", default=DEFAULT_LEVEL, metavar="LEVEL",
        help=help_text.format(levels=_(LEVEL_HELP), default=DEFAULT_LEVEL),
    )


def checked_bot_kind(kind: str) -> str:
    """`kind` if a bot has that level or kind name; else GameOptionError lists the names
    ("unknown bot 'x'; valid bots: easy, normal, hard, random, greedy")."""
    from ono99tui.bots import BOT_NAMES, UnknownBot

    if kind not in BOT_NAMES:
        raise GameOptionError(str(UnknownBot(kind)))
    return kind


def checked_bot_list(text: str) -> tuple[str, ...]:
    """A comma-separated list of bot levels or kinds (`ono99 sim --bots`), each checked;
    GameOptionError for an unknown one or an empty list."""
    names = tuple(checked_bot_kind(name.strip()) for name in text.split(",") if name.strip())
    if not names:
        raise GameOptionError(_("--bots needs at least one bot level or kind"))
    return names
