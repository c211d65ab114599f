"""The settings of one table: who may sit, which rules, how long a dropped seat is held,
how long a player may take over a move."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from netproto.wire.messages import MAX_TURN_SECONDS
from ono99tui.bots import BOT_NAMES, UnknownBot, bot_kind_of, level_of
from ono99tui.game import MAX_PLAYERS, MIN_PLAYERS, Rules, preset
from ono99tui.game.codec import rules_to_wire

# What becomes of a seat whose player never comes back: a bot plays it on, or it resigns
# (the engine's `resign`: out of the match, RULES.md "Resign").
ABANDON_POLICIES = ("bot", "eliminate")
DEFAULT_GRACE_SECONDS = 60.0
# RULES.md §3: with the late-draw penalty a bot next in turn waits this long for a human.
LATE_DRAW_BOT_WAIT = 2.0
# The turn clock (ono99tui.host.turn_clock): the shortest turn time, the one a headless
# table has unless told otherwise, and how many timed-out turns in a row abandon a seat.
MIN_TURN_SECONDS = 1.0
DEFAULT_TURN_SECONDS = 60.0
DEFAULT_TIMEOUTS_TO_ABANDON = 3
# The most a bot may think over one move (the search bot); past it the greedy choice plays.
DEFAULT_BOT_THINK_SECONDS = 2.0
# A headless table deals by itself only once its seats have been live this long, so that
# connections that say hello and are reset at once (even all together) are never dealt to.
HEADLESS_DEAL_SETTLE = 1.0
# Spectators a table takes at most: with its at most 8 seats, well inside the 64 connections
# netproto's server takes (`ServerLimits.max_connections`), so a crowd of watchers is refused
# before it could fill them and a newcomer to a free seat always finds room.
DEFAULT_MAX_SPECTATORS = 48


class TableConfigError(ValueError):
    """A table setting out of range; the message names it."""


@dataclass(frozen=True)
class TableConfig:
    """Everything a host decides about a table before (and, for some, while) it runs."""

    name: str = "ONO 99 table"
    rules: Rules = field(default_factory=preset)
    capacity: int = 4
    password: str | None = None
    # Only a hello carrying this key (or `admin_password`) gets host rights; with neither,
    # the first human seated does (ono99tui.host.rights).
    host_key: str | None = None
    # `ono99 host --headless --admin-password`: a hello whose host_key is this gets host
    # rights too (a headless table always has an operator key besides).
    admin_password: str | None = None
    # Deal automatically once this many seats are taken by live players and bots, and for
    # a rematch once this many are taken and every human is ready (None: the host starts;
    # a rematch needs two seats and every human ready).
    start_when: int | None = None
    grace_seconds: float = DEFAULT_GRACE_SECONDS
    # What happens to a seat whose player never comes back (ABANDON_POLICIES).
    abandon_policy: str = "bot"
    takeover_bot: str = "greedy"
    # Pause before a bot acts, so humans can follow; 0 in tests and benchmarks.
    bot_delay: float = 0.6
    late_draw_bot_wait: float = LATE_DRAW_BOT_WAIT
    # The most a bot may think over one move, off the event loop; past it the greedy bot's
    # choice is played instead. Its pause (bot_delay) and its thinking overlap.
    bot_think_seconds: float = DEFAULT_BOT_THINK_SECONDS
    # Seconds a human seat has for each move before a stand-in plays its turn (None: no
    # clock); the host may change it between matches.
    turn_seconds: float | None = None
    # After this many timed-out turns in a row the seat counts as abandoned.
    timeouts_to_abandon: int = DEFAULT_TIMEOUTS_TO_ABANDON
    # A deal by itself (start_when, a rematch by readiness) waits until the seats it needs
    # have been live this long without a break; 0: at once. A host's `start` never waits.
    deal_settle_seconds: float = 0.0
    # Whether spectators may chat (players always may); the host may change it between
    # matches.
    spectator_chat: bool = True
    # May players ask their app for hints (`lobby.options.hints`)? The app computes a hint
    # from its own view, so this is an honour setting: the official app hides its hint key
    # when it is off. On in solo; off by default at a table with other people. The host
    # may change it between matches.
    hints: bool = False
    # Deal duplicate sets (docs/DUPLICATE.md): each deal once per seat rotation, every
    # player compared with those who held the same cards. The host may change it between
    # matches (a set in play is then given up).
    duplicate: bool = False
    # Spectators at most: past them a watcher's hello is refused with `server-full`, so that
    # watchers never fill the server's connection cap (64) and the seats keep their room.
    max_spectators: int = DEFAULT_MAX_SPECTATORS
    seed: int | None = None

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.capacity <= MAX_PLAYERS:
            raise TableConfigError(f"seats must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        if self.start_when is not None and not MIN_PLAYERS <= self.start_when <= self.capacity:
            raise TableConfigError(f"start-when must be {MIN_PLAYERS} to the number of seats")
        if (self.grace_seconds < 0 or self.bot_delay < 0 or self.late_draw_bot_wait < 0
                or self.deal_settle_seconds < 0):
            raise TableConfigError("times must not be negative")
        if self.bot_think_seconds <= 0:
            raise TableConfigError("a bot's thinking time must be more than 0 seconds")
        if self.turn_seconds is not None and not (
                MIN_TURN_SECONDS <= self.turn_seconds <= MAX_TURN_SECONDS):
            raise TableConfigError(f"the turn time must be {MIN_TURN_SECONDS:g} to "
                                   f"{MAX_TURN_SECONDS:g} seconds")
        if self.max_spectators < 0:
            raise TableConfigError("the number of spectators must not be negative")
        if self.timeouts_to_abandon < 1:
            raise TableConfigError("timeouts before a seat is abandoned must be at least 1")
        if self.abandon_policy not in ABANDON_POLICIES:
            raise TableConfigError(f"abandon policy must be one of {', '.join(ABANDON_POLICIES)}")
        if not self.name.strip():
            raise TableConfigError("a table needs a name")
        if self.takeover_bot not in BOT_NAMES:
            raise TableConfigError(f"the bot level must be one of {', '.join(BOT_NAMES)}")

    def public_options(self) -> dict[str, Any]:
        """The options every seat may see (in `lobby.options`)."""
        return {
            "preset": self.rules.name,
            "rules": rules_to_wire(self.rules),
            "grace_seconds": self.grace_seconds,
            "abandon_policy": self.abandon_policy,
            "turn_seconds": self.turn_seconds,
            "timeouts_to_abandon": self.timeouts_to_abandon,
            "password": self.password is not None,
            "start_when": self.start_when,
            "spectator_chat": self.spectator_chat,
            "hints": self.hints,
            "duplicate": self.duplicate,
            # The level of the table's stand-ins (`--level`): the waiting room's bot level
            # starts there, so a host who asked for hard bots adds hard ones.
            "bot_level": level_of(self.takeover_bot),
        }


def with_table_options(config: TableConfig, table: dict[str, Any]) -> TableConfig:
    """`config` with the table options a journal kept with a match (`TableCore.
    table_options`: `lobby.options` names), for a restarted host that plays it on. A name
    this version does not know is passed over; a value out of range raises
    TableConfigError (the journal does not describe a table this host can be)."""
    changes: dict[str, Any] = {}
    if "turn_seconds" in table:
        seconds = table["turn_seconds"]
        if seconds is not None and (not isinstance(seconds, int | float)
                                    or isinstance(seconds, bool)):
            raise TableConfigError("the journal's turn time is not a number of seconds")
        changes["turn_seconds"] = None if seconds is None else float(seconds)
    for name in ("timeouts_to_abandon",):
        if name in table:
            if type(table[name]) is not int:
                raise TableConfigError(f"the journal's {name} is not a whole number")
            changes[name] = table[name]
    for name in ("hints", "spectator_chat", "duplicate"):
        if name in table:
            if not isinstance(table[name], bool):
                raise TableConfigError(f"the journal's {name} is not true or false")
            changes[name] = table[name]
    if "bot_level" in table:
        try:
            changes["takeover_bot"] = bot_kind_of(table["bot_level"])
        except UnknownBot:
            raise TableConfigError(f"the journal's bot level {table['bot_level']!r} is not "
                                   f"one of {', '.join(BOT_NAMES)}") from None
    return replace(config, **changes)


def rules_from_options(current: Rules, options: dict[str, Any]) -> Rules:
    """Rules after a host's `set_options`: {"preset": name, "rules": {option: value}}.

    Raises ValueError (UnknownPreset, InvalidRules) for anything the engine refuses.
    """
    rules = current
    if "preset" in options:
        name = options["preset"]
        if not isinstance(name, str):
            raise ValueError("preset must be a preset name")
        rules = preset(name)
    overrides = options.get("rules", {})
    if not isinstance(overrides, dict):
        raise ValueError("rules must be a map of option names to values")
    if overrides:
        if "name" in overrides:
            raise ValueError("the rules' name follows the preset")
        rules = rules.replace(**overrides)
    return rules



def turn_seconds_from_options(current: float | None, options: dict[str, Any]) -> float | None:
    """The turn time after a host's `set_options`: {"turn_seconds": S (≥ 1) or nil (off)}.

    Raises ValueError for anything else.
    """
    if "turn_seconds" not in options:
        return current
    value = options["turn_seconds"]
    if value is None:
        return None
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS):
        raise ValueError(f"turn_seconds must be nil (no clock) or {MIN_TURN_SECONDS:g} to "
                         f"{MAX_TURN_SECONDS:g} seconds")
    return float(value)


def spectator_chat_from_options(current: bool, options: dict[str, Any]) -> bool:
    """Whether spectators may chat after a host's `set_options`: {"spectator_chat": bool}.

    Raises ValueError for anything else.
    """
    if "spectator_chat" not in options:
        return current
    value = options["spectator_chat"]
    if not isinstance(value, bool):
        raise ValueError("spectator_chat must be true or false")
    return value


def hints_from_options(current: bool, options: dict[str, Any]) -> bool:
    """Whether hints are allowed after a host's `set_options`: {"hints": true or false}.

    Raises ValueError for anything else.
    """
    if "hints" not in options:
        return current
    value = options["hints"]
    if not isinstance(value, bool):
        raise ValueError("hints must be true or false")
    return value


def duplicate_from_options(current: bool, options: dict[str, Any]) -> bool:
    """Whether the table deals duplicate sets after a host's `set_options`:
    {"duplicate": true or false}. Raises ValueError for anything else."""
    if "duplicate" not in options:
        return current
    value = options["duplicate"]
    if not isinstance(value, bool):
        raise ValueError("duplicate must be true or false")
    return value
