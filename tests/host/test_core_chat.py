"""Table talk in the core, on a fake clock: who may talk, what everyone gets, how fast.

Every refusal is typed (an `ApplicationError` / `BadMessage` with its code), sends nothing
and leaves the table as it was; the table goes on.
"""

from __future__ import annotations

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import BadMessage, ProtocolError
from netproto.wire.messages import MAX_CHAT_TEXT, Chat, Say, SetOptions, message_from_wire
from ono99tui.host.chat import CHAT_BURST, CHAT_PER_SECOND, EMOTES
from ono99tui.host.core import PLAYING


def table_of_three() -> tuple[ClockedTable, int, int, int]:
    """Ann (host) and Bob seated, a spectator; nothing dealt yet."""
    table = ClockedTable(config(capacity=2))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    watcher = table.connect("Watcher", spectate=True)
    return table, ann, bob, watcher


def chats(table: ClockedTable, peer: int) -> list[Chat]:
    return table.of_kind(peer, Chat)


def refused(table: ClockedTable, peer: int, message: Say) -> str:
    """The code `message` from `peer` is refused with; nothing at all was sent."""
    sent = {peer: list(frames) for peer, frames in table.frames.items()}
    with pytest.raises(ProtocolError) as error:
        table.send(peer, message)
    assert table.frames == sent
    return error.value.code


def test_a_line_reaches_everyone_with_its_sender() -> None:
    table, ann, bob, watcher = table_of_three()
    table.send(bob, Say(text="hello all"))
    expected = Chat(name="Bob", text="hello all", seat=1)
    for peer in (ann, bob, watcher):
        assert chats(table, peer) == [expected]


def test_a_spectator_talks_under_its_own_name_and_no_seat() -> None:
    table, ann, _, watcher = table_of_three()
    table.send(watcher, Say(text="go Ann"))
    assert chats(table, ann) == [Chat(name="Watcher", text="go Ann", seat=None)]


def test_an_emote_carries_its_name_and_words() -> None:
    table, ann, bob, _ = table_of_three()
    table.send(ann, Say(emote="good-game"))
    assert chats(table, bob) == [Chat(name="Ann", text=EMOTES["good-game"], seat=0,
                                      emote="good-game")]
    assert refused(table, ann, Say(emote="rude-gesture")) == "unknown-emote"


def test_chat_goes_on_during_a_match_and_carries_no_card() -> None:
    table, ann, _bob, watcher = table_of_three()
    table.run(table.core.start(table.now))
    assert table.core.phase == PLAYING
    views_before = len(table.views(ann))
    table.send(ann, Say(text="good luck"))
    assert len(table.views(ann)) == views_before  # talk is no game event: no new view
    frame = chats(table, watcher)[-1].to_wire()
    assert set(frame) == {"kind", "name", "text", "seat"}
    assert frame["text"] == "good luck"


def test_text_is_made_inert_before_it_is_sent() -> None:
    table, ann, bob, _ = table_of_three()
    table.send(ann, Say(text="\x1b[2J\x1b]0;pwned\x07red\u202e alert\r\nnext [b]line[/b]\x00"))
    assert chats(table, bob)[-1].text == "red alert next [b]line[/b]"


def test_nothing_printable_is_refused() -> None:
    table, ann, _, _ = table_of_three()
    assert refused(table, ann, Say(text="\x1b[31m\u200b \n\t")) == "empty-chat"


def test_an_oversize_line_is_a_bad_message() -> None:
    with pytest.raises(BadMessage):
        message_from_wire({"kind": "say", "text": "x" * (MAX_CHAT_TEXT + 1)})
    with pytest.raises(BadMessage):
        message_from_wire({"kind": "say"})
    with pytest.raises(BadMessage):
        message_from_wire({"kind": "say", "text": "a", "emote": "oops"})
    assert message_from_wire({"kind": "say", "text": "x" * MAX_CHAT_TEXT}) == Say(
        text="x" * MAX_CHAT_TEXT)


def test_a_burst_then_slow_down_then_one_every_interval() -> None:
    table, ann, bob, _ = table_of_three()
    for number in range(CHAT_BURST):
        table.send(ann, Say(text=f"line {number}"))
    assert refused(table, ann, Say(text="one too many")) == "slow-down"
    # Bob has a bucket of his own.
    table.send(bob, Say(text="I may"))
    table.advance(1 / CHAT_PER_SECOND - 0.01)
    assert refused(table, ann, Say(text="not yet")) == "slow-down"
    table.advance(0.02)
    table.send(ann, Say(text="now"))
    assert [chat.text for chat in chats(table, bob)][-2:] == ["I may", "now"]


def test_the_bucket_belongs_to_the_seat_across_a_reconnect() -> None:
    table, _ann, bob, _ = table_of_three()
    table.run(table.core.start(table.now))
    for number in range(CHAT_BURST):
        table.send(bob, Say(text=f"line {number}"))
    token = table.welcome(bob).token
    assert token is not None
    table.drop(bob)
    bob_again = table.resume(token)
    assert refused(table, bob_again, Say(text="fresh start?")) == "slow-down"


def test_the_host_turns_spectator_chat_off_and_players_still_talk() -> None:
    table, ann, bob, watcher = table_of_three()
    assert table.lobby(ann).options["spectator_chat"] is True
    table.send(ann, SetOptions(options={"spectator_chat": False}))
    assert table.lobby(watcher).options["spectator_chat"] is False
    assert refused(table, watcher, Say(text="hi")) == "chat-off"
    table.send(bob, Say(text="still here"))
    assert chats(table, watcher)[-1].text == "still here"  # spectators still read
    with pytest.raises(ProtocolError) as error:
        table.send(bob, SetOptions(options={"spectator_chat": True}))
    assert error.value.code == "not-host"
    with pytest.raises(ProtocolError) as error:
        table.send(ann, SetOptions(options={"spectator_chat": "yes"}))
    assert error.value.code == "bad-options"
    table.send(ann, SetOptions(options={"spectator_chat": True}))
    table.send(watcher, Say(text="thanks"))
    assert chats(table, ann)[-1] == Chat(name="Watcher", text="thanks", seat=None)


def test_chat_from_an_unknown_connection_is_refused_and_the_table_goes_on() -> None:
    table, ann, bob, _ = table_of_three()
    assert refused(table, 999, Say(text="who am I")) == "no-such-seat"
    table.drop(bob)  # a seat freed before the deal: its old connection is nobody now
    assert refused(table, bob, Say(text="ghost")) == "no-such-seat"
    table.send(ann, Say(text="still talking"))
    assert chats(table, ann)[-1].text == "still talking"


def test_the_welcome_says_the_table_talks() -> None:
    table, ann, _, watcher = table_of_three()
    assert table.welcome(ann).table["chat"] is True
    assert table.welcome(watcher).table["chat"] is True
