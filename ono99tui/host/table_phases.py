"""The table's phases as a transition table (as `netproto.connection` does for connections,
after h11's `_state.py`):

    WAITING  --deal------> PLAYING --won--> FINISHED
    FINISHED --deal------> PLAYING
    FINISHED --open room--> WAITING

`TablePhases` is the one place the phase changes (`change`), and the one place that says
which of the table's actions each phase allows (`require`), so the core asks "may this be
done now?" rather than comparing the phase by hand. An action the phase does not allow is
refused with the `TableError` its sender is answered with, and nothing changes; a phase
change the table does not have raises `IllegalPhaseChange`, which is a bug in the core
(it checks the action first), never something a peer can cause.
"""

from __future__ import annotations

import enum

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import TablePhase
from ono99tui.table_protocol import TABLE_ERROR_REASONS, TableError

WAITING, PLAYING, FINISHED = TablePhase.WAITING, TablePhase.PLAYING, TablePhase.FINISHED


class PhaseChange(enum.StrEnum):
    """What moves the table from one phase to another."""

    DEAL = "deal"  # a match is dealt (or a restarted host takes one up)
    WON = "won"  # the match is over
    OPEN_ROOM = "open-room"  # the host takes the table back to the waiting room


class Action(enum.StrEnum):
    """What a player or the host asks the table to do that depends on the phase."""

    MOVE = "move"
    START = "start"
    ADD_BOT = "add-bot"
    REMOVE_BOT = "remove-bot"
    OPEN_ROOM = "open-room"
    RATED = "rated"  # a player asks to be rated, or not


TRANSITIONS: dict[tuple[TablePhase, PhaseChange], TablePhase] = {
    (WAITING, PhaseChange.DEAL): PLAYING,
    (FINISHED, PhaseChange.DEAL): PLAYING,
    (PLAYING, PhaseChange.WON): FINISHED,
    (FINISHED, PhaseChange.OPEN_ROOM): WAITING,
}

# Each action: the phases it may be done in, and the error it is refused with otherwise.
ALLOWED: dict[Action, tuple[frozenset[TablePhase], TableError]] = {
    Action.MOVE: (frozenset({PLAYING}), TableError.NO_MATCH),
    Action.START: (frozenset({WAITING, FINISHED}), TableError.MATCH_RUNNING),
    Action.ADD_BOT: (frozenset({WAITING, FINISHED}), TableError.MATCH_RUNNING),
    Action.REMOVE_BOT: (frozenset({WAITING, FINISHED}), TableError.MATCH_RUNNING),
    # In the waiting room already: allowed, and it changes nothing (a second press).
    Action.OPEN_ROOM: (frozenset({WAITING, FINISHED}), TableError.MATCH_RUNNING),
    # The match header records who is unrated at the deal: it holds to the match's end.
    Action.RATED: (frozenset({WAITING, FINISHED}), TableError.MATCH_RUNNING),
}


class IllegalPhaseChange(Exception):
    """The core asked for a phase change its table does not have (a bug in the core)."""

    def __init__(self, phase: TablePhase, change: PhaseChange) -> None:
        super().__init__(f"a table in phase {phase.value!r} cannot {change.value!r}")
        self.phase = phase
        self.change = change


def table_error(code: TableError, detail: str = "") -> ApplicationError:
    """The refusal `code` as the connection is answered with it (its reason, then
    `detail`); the wire code is the enum's value."""
    reason = TABLE_ERROR_REASONS[code]
    return ApplicationError(code.value, f"{reason}: {detail}" if detail else reason)


class TablePhases:
    """The phase a table is in, changed only through `TRANSITIONS`."""

    __slots__ = ("phase",)

    def __init__(self, phase: TablePhase = WAITING) -> None:
        self.phase = phase

    def change(self, change: PhaseChange) -> TablePhase:
        """Move to the phase `change` leads to and return it; IllegalPhaseChange (and no
        change) if the current phase has no such way out."""
        after = TRANSITIONS.get((self.phase, change))
        if after is None:
            raise IllegalPhaseChange(self.phase, change)
        self.phase = after
        return after

    def may(self, action: Action) -> bool:
        """Whether `action` may be done in the current phase."""
        return self.phase in ALLOWED[action][0]

    def require(self, action: Action) -> None:
        """Refuse `action` (ApplicationError with its TableError) unless the phase
        allows it."""
        phases, refusal = ALLOWED[action]
        if self.phase not in phases:
            raise table_error(refusal)

    @property
    def playing(self) -> bool:
        """Whether a match is being played."""
        return self.phase is PLAYING

    @property
    def between_matches(self) -> bool:
        """Waiting for the first deal, or a match is over: seats may change."""
        return self.phase is not PLAYING
