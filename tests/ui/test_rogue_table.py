"""A rogue table on loopback sends hostile text; the client shows none of it raw.

The table here is not ours (`foreign_servers.rogue_table`): its seat names, table name,
chat and refusal reasons carry OSC/CSI escape sequences, C1 controls, bidi overrides and
line breaks. What `TableClient` hands the app must hold the cleaned text, and the app's
screen must hold no control or format character (docs/PROTOCOL.md §6).
"""

from __future__ import annotations

import random
import unicodedata

import pytest
from foreign_servers import rogue_table, serving
from table_helpers import record_notices, screen_text, wait_until

from netproto.client import TableClient
from netproto.client_errors import HandshakeRefused
from netproto.wire.messages import PROTOCOL_VERSION, UNREADABLE, Chat, Error, Lobby, View, Welcome
from ono99tui.client.session import shown_welcome
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

TABLE_NAME = "\x1b]0;pwn\x07Den\x9b31m of\u202e thieves\r\n"
SEAT_NAMES = {
    "\x1b]0;pwn\x07Eve\x1b[2J": "Eve",
    "Ma\u202elory\u2066": "Malory",
    "line\nbreak\x85x": "line break x",
    "\x1b[31m\x07\u200b": UNREADABLE,
}
REASON = "no\x1b]8;;http://evil\x1b\\ way\x1b[0m\nreally\x9b2J"
ANSWERS = (
    {"kind": "welcome", "proto": PROTOCOL_VERSION, "role": "player", "seat": 0,
     "token": "t", "table": {"name": TABLE_NAME, "capacity": 4, "chat": True}},
    {"kind": "lobby", "phase": "waiting", "host_seat": 1, "you": 0, "capacity": 4,
     "seats": [{"seat": number, "name": raw, "kind": "human", "ready": False,
                "connected": True} for number, raw in enumerate(SEAT_NAMES)]},
    {"kind": "chat", "name": "\x1b]0;pwn\x07Eve", "text": "hi\x1b[2J\nthere\u202e", "seat": 0},
    {"kind": "error", "code": "bad\x1b[5m-move", "reason": REASON},
)


def unprintable(text: str) -> list[str]:
    """The control and format characters in `text` (a line break between rows aside)."""
    return [char for char in text
            if unicodedata.category(char) in ("Cc", "Cf") and char != "\n"]


async def test_the_client_decodes_a_rogue_tables_text_cleaned() -> None:
    async with serving(rogue_table(*ANSWERS)) as port:
        client = await TableClient.connect("127.0.0.1", port, name="ana")
        try:
            lobby = await client.wait_for(Lobby, timeout=5)
            chat = await client.wait_for(Chat, timeout=5)
            error = await client.wait_for(Error, timeout=5)
        finally:
            await client.close()
    assert [seat.name for seat in lobby.seats] == list(SEAT_NAMES.values())
    assert (chat.name, chat.text) == ("Eve", "hi there")
    assert (error.code, error.reason) == ("bad-move", "no way really")
    assert client.welcome is not None
    assert shown_welcome(client.welcome).table["name"] == "Den of thieves"


async def test_a_refusal_reason_from_a_rogue_table_is_cleaned() -> None:
    refusal = {"kind": "error", "code": "\x1b[2Jfull\u202e", "reason": REASON}
    async with serving(rogue_table(refusal)) as port:
        with pytest.raises(HandshakeRefused) as refused:
            await TableClient.connect("127.0.0.1", port, name="ana")
    assert (refused.value.code, refused.value.reason) == ("full", "no way really")


def test_a_welcome_keeps_an_ordinary_table_name_and_drops_a_non_string_one() -> None:
    def welcome(name: object) -> Welcome:
        return Welcome(proto=PROTOCOL_VERSION, role="player", table={"name": name, "chat": True})

    for name in ("Kitchen table", "Zoë's 李 🎲 [b]", "x" * 48):
        assert shown_welcome(welcome(name)).table == {"name": name, "chat": True}
    assert shown_welcome(welcome("\x1b[0m\u202e")).table["name"] == UNREADABLE
    assert shown_welcome(welcome(["a list"])).table == {"chat": True}


async def test_the_app_shows_no_control_character_from_a_rogue_table() -> None:
    async with serving(rogue_table(*ANSWERS)) as port:
        async def connect() -> TableClient:
            return await TableClient.connect("127.0.0.1", port, name="ana")

        app = Ono99App(connect, start_screen=WaitingRoomScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        notices = record_notices(app)
        async with app.run_test(size=(100, 30)) as pilot:
            # Every seat row and the refusal shown (whatever the text in them holds).
            await wait_until(pilot, lambda: notices and screen_text(app).count("not ready") == 3
                             and "host" in screen_text(app))
            await pilot.pause()
            shown = screen_text(app)
            toasts = "\n".join(notices)
    assert "Eve" in shown and "Malory" in shown and "Den of thieves" in shown, shown
    assert unprintable(shown) == [] and unprintable(toasts) == []
    assert "\x1b" not in shown + toasts and "pwn" not in shown


# A card value 60,000 characters long (a frame holds 64 KiB), escape sequences and all:
# the app's words about the view it could not read quote it (repr), and quoted it whole.
HUGE_CARD = "\x1b]0;pwn\x07" + "A" * 30_000 + "\x1b[2J" + "B" * 30_000


def a_view_with_a_huge_bad_card() -> dict[str, object]:
    """A view message whose hand holds `HUGE_CARD` (every other field as a table sends)."""
    from ono99tui.game import Card, position, preset, view
    from ono99tui.game.codec import view_to_wire

    hands = [[Card.TWO] * 3 + [Card.SEVEN], [Card.THREE] * 3 + [Card.FOUR]]
    wire = view_to_wire(view(position(preset("2022"), hands), 0))
    wire["hand"] = [HUGE_CARD, "2", "2", "7"]
    return {"kind": "view", "seq": 1, "view": wire, "events": []}


async def test_a_view_the_app_cannot_read_is_reported_in_a_few_clean_words() -> None:
    from ono99tui.client.wire_text import MAX_SHOWN_REASON
    from ono99tui.ui.screens.table import TableScreen

    long_refusal = {"kind": "error", "code": "bad-move",
                    "reason": "no\x1b[2J " + "way " * 120 + "\u202eend"}
    answers = (ANSWERS[0], {**ANSWERS[1], "phase": "playing"}, a_view_with_a_huge_bad_card(),
               long_refusal)
    async with serving(rogue_table(*answers)) as port:
        async def connect() -> TableClient:
            return await TableClient.connect("127.0.0.1", port, name="ana")

        app = Ono99App(connect, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        notices = record_notices(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: len(notices) >= 2)
            await pilot.pause()
            shown = screen_text(app)
            assert app.is_running and app.session.view is None
    bad_view = next(n for n in notices if "cannot read" in n)
    assert bad_view.startswith("the table sent a view this app cannot read (hand")
    assert bad_view.endswith("…)") and "AAAA" in bad_view and "BBBB" not in bad_view
    assert len(bad_view) < MAX_SHOWN_REASON + 60, len(bad_view)
    refusal = next(n for n in notices if n.startswith("no way"))
    assert len(refusal) <= MAX_SHOWN_REASON and refusal.endswith("way…"), refusal
    assert unprintable("\n".join(notices)) == [] and unprintable(shown) == []


def _match_frames() -> tuple[dict[str, object], dict[str, object], dict[str, object]]:
    """A welcome, a playing lobby and a good first view (with its deal) from a table."""
    from ono99tui.game import preset, start_match, view
    from ono99tui.game.codec import event_to_wire, view_to_wire

    state, dealt = start_match(preset("2022"), 3, random.Random(4))
    welcome = {"kind": "welcome", "proto": PROTOCOL_VERSION, "role": "player", "seat": 0,
               "token": "t", "table": {"name": "Den", "capacity": 3, "chat": True}}
    lobby = {"kind": "lobby", "phase": "playing", "host_seat": 0, "you": 0, "capacity": 3,
             "seats": [{"seat": number, "name": name, "kind": "human", "ready": True,
                        "connected": True} for number, name in enumerate(("ana", "bo", "cy"))]}
    first = {"kind": "view", "seq": 1, "view": view_to_wire(view(state, 0)),
             "events": [event_to_wire(event) for event in dealt]}
    return welcome, lobby, first


async def test_a_hostile_history_is_refused_with_a_notice_and_the_view_shown() -> None:
    welcome, lobby, first = _match_frames()
    hostile = [first["events"][0],  # type: ignore[index]
               {"kind": "played", "seat": 1, "card": "\x1b]0;pwn\x07\u202e7", "total": 7}]
    async with serving(rogue_table(welcome, lobby, {**first, "history": hostile})) as port:
        async def connect() -> TableClient:
            return await TableClient.connect("127.0.0.1", port, name="ana")

        app = Ono99App(connect, ascii_glyphs=False, sixteen_colours=False)
        notices = record_notices(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None and bool(notices))
            await pilot.pause()
            lines = list(app.log_lines)
            shown = screen_text(app)
    assert any("could not be read" in notice and "event 2" in notice for notice in notices)
    assert all(unprintable(notice) == [] and "\x1b" not in notice for notice in notices)
    assert len(lines) == 1 and lines[0].startswith("Round 1")  # the view's own deal, only
    assert "pwn" not in shown and unprintable(shown) == []


async def test_a_history_that_is_not_a_list_leaves_the_view_out_and_nothing_else() -> None:
    welcome, lobby, first = _match_frames()
    junk = {**first, "seq": 2, "history": "everything, trust me", "events": []}
    second = {**first, "seq": 3, "events": []}
    async with serving(rogue_table(welcome, lobby, first, junk, second)) as port:
        client = await TableClient.connect("127.0.0.1", port, name="ana")
        try:
            views = [await client.wait_for(View, timeout=5) for _ in range(2)]
        finally:
            await client.close()

        async def connect() -> TableClient:
            return await TableClient.connect("127.0.0.1", port, name="ana")

        app = Ono99App(connect, ascii_glyphs=False, sixteen_colours=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: app.session.view_seq == 3)
            lines = list(app.log_lines)
    # The bad message was refused where it was decoded (netproto: bad-message, logged);
    # the views around it came through, and the log holds the deal once.
    assert [view.seq for view in views] == [1, 3]
    assert len(lines) == 1 and lines[0].startswith("Round 1")
