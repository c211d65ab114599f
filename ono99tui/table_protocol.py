"""The table's own vocabulary on the wire, shared by the host and its clients: the error
codes a table answers with, and the quick emotes it knows.

netproto's codes (framing, handshake, closes: `netproto.wire.errors`) are game-agnostic; these
are ono99's (docs/PROTOCOL.md §7 "Errors"). The host raises them, the client session and
the network bot decide on them, and each side compares members of `TableError`, never
strings typed twice.
"""

from __future__ import annotations

import enum

from ono99tui.i18n import N_


class TableError(enum.StrEnum):
    """An error code the table answers a message with (its `error.code`)."""

    NOT_HOST = "not-host"
    NO_MATCH = "no-match"
    MATCH_RUNNING = "match-running"
    STALE_SEQ = "stale-seq"
    MALFORMED_MOVE = "malformed-move"
    WRONG_SEAT = "wrong-seat"
    NOT_YOUR_TURN = "not-your-turn"
    ILLEGAL_MOVE = "illegal-move"
    NOT_ENOUGH_PLAYERS = "not-enough-players"
    TABLE_FULL = "table-full"
    UNKNOWN_BOT = "unknown-bot"
    NO_SUCH_SEAT = "no-such-seat"
    NOT_A_BOT = "not-a-bot"
    BAD_OPTIONS = "bad-options"
    CHAT_OFF = "chat-off"
    EMPTY_CHAT = "empty-chat"
    UNKNOWN_EMOTE = "unknown-emote"
    SLOW_DOWN = "slow-down"


# What each code means, in the words the table puts in `error.reason` (a detail may follow);
# English on the wire, translated by the player's session (marked for the catalog with N_).
TABLE_ERROR_REASONS: dict[TableError, str] = {
    TableError.NOT_HOST: N_("only the host may do this"),
    TableError.NO_MATCH: N_("no match is being played"),
    TableError.MATCH_RUNNING: N_("not while a match is being played"),
    TableError.STALE_SEQ: N_("the move was chosen from an older view than the latest one"),
    TableError.MALFORMED_MOVE: N_("the move map is not a move"),
    TableError.WRONG_SEAT: N_("the move names another seat"),
    TableError.NOT_YOUR_TURN: N_("this seat has no move to make now"),
    TableError.ILLEGAL_MOVE: N_("the rules forbid this move now"),
    TableError.NOT_ENOUGH_PLAYERS: N_("a match needs at least two seats taken"),
    TableError.TABLE_FULL: N_("every seat is taken"),
    TableError.UNKNOWN_BOT: N_("no bot has this name"),
    TableError.NO_SUCH_SEAT: N_("there is no such seat"),
    TableError.NOT_A_BOT: N_("that seat is a human player"),
    TableError.BAD_OPTIONS: N_("the options are not valid"),
    TableError.CHAT_OFF: N_("the host has turned spectators' chat off"),
    TableError.EMPTY_CHAT: N_("a chat line needs at least one printable character"),
    TableError.UNKNOWN_EMOTE: N_("the table knows no such emote"),
    TableError.SLOW_DOWN: N_("slow down"),
}

# Quick emotes: the name that goes on the wire, and the words everyone sees. Names are
# stable (a client shows its own words for them, in its language: `client/talk.py`); the
# words are what `chat.text` says, in English.
EMOTES: dict[str, str] = {
    "hello": N_("Hello!"),
    "nice-play": N_("Nice play!"),
    "oops": N_("Oops!"),
    "your-turn": N_("Your turn!"),
    "good-game": N_("Good game!"),
}
