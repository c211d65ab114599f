"""Text a client shows on its screen is made inert as the client decodes it.

A table that is not ours (or a rogue one) may put terminal escape sequences, C1 controls,
bidi overrides or line breaks in any string it sends; `netproto.wire.messages` cleans seat and
chat names, chat lines and error/bye codes and reasons with the chat cleaner as it decodes
them (docs/PROTOCOL.md §6), and leaves ordinary text exactly as it was.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from netproto.wire.messages import (
    MAX_NAME_FIELD,
    UNREADABLE,
    Bye,
    Chat,
    Error,
    Lobby,
    SeatInfo,
    message_from_wire,
)

# Raw text -> what a client must keep of it.
HOSTILE = {
    "\x1b]0;pwn\x07Eve\x1b[2J": "Eve",  # OSC title, CSI erase
    "Ma\u202elory\u2066": "Malory",  # bidi override and isolate
    "line\nbreak\x85x\r": "line break x",  # LF, NEL (C1), CR
    "\x9b31mC1\x9d0;t\x07 csi\x90q\x9c": "C1 csi",  # 8-bit CSI, OSC, DCS
    "zero\u200bwidth\ufeff\u200d": "zerowidth",
    "e" + "\u0301" * 9: "\u00e9\u0301\u0301",  # NFC composes one, two more are kept
}
EMPTY = ("\x1b[31m\x07\u200b", "\n\r\t ", "\x1b]8;;http://x\x1b\\")
ORDINARY = ("Ann", "Zoë Ñúñez", "李小龍", "🎲 dice 🃏", "[b]not markup[/b]", "a b-c_d.e",
            "x" * MAX_NAME_FIELD)


def seat_map(name: str) -> dict[str, Any]:
    return {"seat": 1, "name": name, "kind": "human", "ready": True, "connected": True}


def both_paths(name: str) -> list[str]:
    """The seat name as the fast path and the field-by-field path decode it."""
    return [SeatInfo.from_wire(seat_map(name)).name,
            SeatInfo.checked_from_wire(seat_map(name)).name]


@pytest.mark.parametrize(("raw", "clean"), HOSTILE.items())
def test_hostile_seat_names_are_cleaned_on_both_paths(raw: str, clean: str) -> None:
    assert both_paths(raw) == [clean, clean]


@pytest.mark.parametrize("raw", EMPTY)
def test_a_seat_name_with_nothing_printable_reads_as_a_placeholder(raw: str) -> None:
    assert both_paths(raw) == [UNREADABLE, UNREADABLE]


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_are_unchanged(name: str) -> None:
    assert both_paths(name) == [name, name]
    chat = Chat.from_wire({"kind": "chat", "name": name, "text": name[:200]})
    assert (chat.name, chat.text) == (name, name[:200])


def test_a_lobby_cleans_every_seat() -> None:
    raws = list(HOSTILE)
    lobby = message_from_wire({"kind": "lobby", "phase": "waiting",
                               "seats": [seat_map(raw) for raw in raws]})
    assert isinstance(lobby, Lobby)
    assert [seat.name for seat in lobby.seats] == list(HOSTILE.values())


@pytest.mark.parametrize(("raw", "clean"), HOSTILE.items())
def test_chat_error_and_bye_text_is_cleaned(raw: str, clean: str) -> None:
    chat = Chat.from_wire({"kind": "chat", "name": raw, "text": raw})
    assert (chat.name, chat.text) == (clean, clean)
    error = Error.from_wire({"kind": "error", "code": raw[:64], "reason": raw})
    assert error.reason == clean
    assert not any(unicodedata.category(char).startswith("C") for char in error.code)
    bye = Bye.from_wire({"kind": "bye", "code": "kicked", "reason": raw})
    assert (bye.code, bye.reason) == ("kicked", clean)


def test_empty_reasons_stay_empty_and_empty_codes_read_as_a_placeholder() -> None:
    error = Error.from_wire({"kind": "error", "code": "\x1b[0m", "reason": "\x1b]0;x\x07"})
    assert (error.code, error.reason) == (UNREADABLE, "")
    chat = Chat.from_wire({"kind": "chat", "name": "\u202e", "text": "\x07"})
    # An empty line stays empty (the app drops it); the talker still has a name to show.
    assert (chat.name, chat.text) == (UNREADABLE, "")


def test_known_codes_are_unchanged() -> None:
    for code in ("normal", "bad-move", "slow-down", "table-full", "host-left"):
        assert Error.from_wire({"kind": "error", "code": code}).code == code
        assert Bye.from_wire({"kind": "bye", "code": code}).code == code
