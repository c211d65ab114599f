"""Typed errors of the rules engine; each carries a short machine `code` and a human `reason`."""

from __future__ import annotations


class MoveError(ValueError):
    """A move the engine refused. The state it was applied to is unchanged."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.reason!r})"


class MalformedMove(MoveError):
    """The move is not a well-formed move at all (wrong type, unknown card or kind, bad seat)."""


class IllegalMove(MoveError):
    """The move is well formed but the rules forbid it in this position."""


class CannotResign(MoveError):
    """`resign` was asked for a seat already out of the match, or after the match ended."""


class UnknownPreset(ValueError):
    """No rule preset has this name; the message lists the valid ones."""

    def __init__(self, name: str, valid: tuple[str, ...]) -> None:
        super().__init__(f"unknown rules preset {name!r}; valid presets: {', '.join(valid)}")
        self.name = name
        self.valid = valid


class InvalidRules(ValueError):
    """A rule option has a value the engine does not support."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"rule option {option!r}: {reason}")
        self.option = option
        self.reason = reason


class InvalidPlayerCount(ValueError):
    """A match needs 2 to 8 players."""
