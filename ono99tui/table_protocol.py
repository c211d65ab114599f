"""The table's own vocabulary on the wire, shared by the host and its clients: the error
codes a table answers with, and the quick emotes it knows.

netproto's codes (framing, handshake, closes: `netproto.wire.errors`) are game-agnostic; these
are ono99's (docs/PROTOCOL.md §7 "Errors"). The host raises them, the client session and
the network bot decide on them, and each side compares members of `TableError`, never
strings typed twice.
"""

from __future__ import annotations

import enum


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


# What each code means, in the words the table puts in `error.reason` (a detail may follow).
TABLE_ERROR_REASONS: dict[TableError, str] = {
    TableError.NOT_HOST: "only the host may do this",
    TableError.NO_MATCH: "no match is being played",
    TableError.MATCH_RUNNING: "not while a match is being played",
    TableError.STALE_SEQ: "the move was chosen from an older view than the latest one",
    TableError.MALFORMED_MOVE: "the move map is not a move",
    TableError.WRONG_SEAT: "the move names another seat",
    TableError.NOT_YOUR_TURN: "this seat has no move to make now",
    TableError.ILLEGAL_MOVE: "the rules forbid this move now",
    TableError.NOT_ENOUGH_PLAYERS: "a match needs at least two seats taken",
    TableError.TABLE_FULL: "every seat is taken",
    TableError.UNKNOWN_BOT: "no bot has this name",
    TableError.NO_SUCH_SEAT: "there is no such seat",
    TableError.NOT_A_BOT: "that seat is a human player",
    TableError.BAD_OPTIONS: "the options are not valid",
    TableError.CHAT_OFF: "the host has turned spectators' chat off",
    TableError.EMPTY_CHAT: "a chat line needs at least one printable character",
    TableError.UNKNOWN_EMOTE: "the table knows no such emote",
    TableError.SLOW_DOWN: "slow down",
}

# Quick emotes: the name that goes on the wire, and the words everyone sees. Names are
# stable (a client may show its own words for them); the words are what `chat.text` says.
EMOTES: dict[str, str] = {
    "hello": "Hello!",
    "nice-play": "Nice play!",
    "oops": "Oops!",
    "your-turn": "Your turn!",
    "good-game": "Good game!",
}
