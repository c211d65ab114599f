"""The table's options as a player's program knows them: the lobby's `options` map, decoded
once into a frozen value.

The table sends its public options in every lobby (`TableConfig.public_options` on the host:
docs/PROTOCOL.md §4 "lobby"). A client never trusts what a table sends, so every field is
read strictly: a value of the wrong type or out of range reads as "not said" (`None`, or the
default an older table implies), never as an exception and never as whatever was sent. The
front ends read `TableOptions` instead of looking keys up in the raw map.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ono99tui.client.duplicate import DuplicateProgress, progress_from_wire
from ono99tui.game import Rules
from ono99tui.game.codec import rules_from_wire

# The policies a table may name for a seat whose player never comes back
# (`ono99tui.host.table_config.ABANDON_POLICIES`).
ABANDON_POLICIES = ("bot", "eliminate")


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What a table said about its options (None: it did not say, or said it in a form this
    program cannot read)."""

    # The rules, decoded (None: none sent, or rules this engine cannot read).
    rules: Rules | None = None
    # The preset the rules came from ("2022", "1980", "1980-set99").
    preset: str | None = None
    grace_seconds: float | None = None
    abandon_policy: str | None = None
    # Seconds a seat has for each move (None: no turn clock).
    turn_seconds: float | None = None
    timeouts_to_abandon: int | None = None
    # Whether the table asks for a password.
    password: bool = False
    # Deal by itself once this many seats are taken (None: the host deals).
    start_when: int | None = None
    # Whether spectators may talk: an older table that does not say lets them.
    spectator_chat: bool = True
    # Whether the host allows hints (an honour setting): off unless the table says so.
    hints: bool = False
    # The level of the table's stand-in bots ("easy", "normal", "hard").
    bot_level: str | None = None
    # Whether the table deals duplicate sets (docs/DUPLICATE.md), and where its set stands.
    duplicate: bool = False
    duplicate_set: DuplicateProgress | None = None


NO_OPTIONS = TableOptions()


def options_from_wire(options: Mapping[str, Any]) -> TableOptions:
    """Decode a lobby's `options` map (see the module docstring): never raises."""
    try:
        rules: Rules | None = rules_from_wire(options.get("rules"))
    except ValueError:
        rules = None
    policy = options.get("abandon_policy")
    level = options.get("bot_level")
    return TableOptions(
        rules=rules,
        preset=_text(options.get("preset")),
        grace_seconds=_seconds(options.get("grace_seconds")),
        abandon_policy=policy if policy in ABANDON_POLICIES else None,
        turn_seconds=_seconds(options.get("turn_seconds"), positive=True),
        timeouts_to_abandon=_count(options.get("timeouts_to_abandon")),
        password=options.get("password") is True,
        start_when=_count(options.get("start_when")),
        spectator_chat=options.get("spectator_chat", True) is not False,
        hints=options.get("hints") is True,
        bot_level=_text(level),
        duplicate=options.get("duplicate") is True,
        duplicate_set=progress_from_wire(options),
    )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _seconds(value: object, *, positive: bool = False) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    seconds = float(value)
    if not math.isfinite(seconds) or seconds < 0 or (positive and seconds == 0):
        return None
    return seconds


def _count(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None
