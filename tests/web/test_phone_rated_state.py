"""The phone page's "Rate my play" switch without a browser: its state from the session
(on, off, or none to offer), each seat's "not rated" mark, its request read strictly, and
what the door makes of it (sent between matches, refused in words during one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from netproto.wire.messages import Lobby, Rated, SeatInfo, SeatKind, TablePhase, Welcome
from ono99tui.client.outputs import Notice, Send
from ono99tui.client.session import TableSession
from ono99tui.web.phone.intents import Intent, PageError, read_intent
from ono99tui.web.phone.link import PhoneSeat
from ono99tui.web.phone.state import page_state
from ono99tui.web.seats import Seat, SeatBook


def session_at(*, rates: bool = True, unrated: bool = False, role: str = "player",
               phase: TablePhase = TablePhase.WAITING) -> TableSession:
    session = TableSession()
    session.connect()
    table = {"name": "T", "chat": True, **({"rates": True} if rates else {})}
    player = role == "player"
    session.receive(Welcome(proto=1, role=role, seat=0 if player else None,
                            token="t" if player else None, table=table), 0.0)
    session.receive(Lobby(phase=phase, you=0 if player else None, capacity=3, seats=(
        SeatInfo(0, "ana", SeatKind.HUMAN, False, True, rating=None if unrated else 1000,
                 unrated=unrated),
        SeatInfo(1, "Easy bot", SeatKind.BOT, True, True, rating=1000))), 0.0)
    return session


def test_the_switch_follows_the_tables_word_and_each_seat_says_whether_it_is_rated() -> None:
    on = page_state(session_at(), 0.0)
    assert on["rated"] is True
    assert [seat["unrated"] for seat in on["room"]["seats"]] == [False, False]
    off = page_state(session_at(unrated=True), 0.0)
    assert off["rated"] is False and off["room"]["seats"][0]["unrated"] is True
    assert off["room"]["seats"][0]["rating"] is None


def test_no_switch_for_a_spectator_or_at_a_table_that_rates_nobody() -> None:
    assert page_state(session_at(role="spectator"), 0.0)["rated"] is None
    assert page_state(session_at(rates=False), 0.0)["rated"] is None


@pytest.mark.parametrize("raw", ['{"t": "rated"}', '{"t": "rated", "on": "no"}',
                                 '{"t": "rated", "on": 0}', '{"t": "rated", "on": null}'])
def test_the_switch_request_is_read_strictly(raw: str) -> None:
    with pytest.raises(PageError) as caught:
        read_intent(raw)
    assert caught.value.code == "malformed" and caught.value.ref == "rated"


def test_the_switch_request_is_read() -> None:
    assert read_intent('{"t": "rated", "on": false}') == Intent("rated", flag=False)


def phone_at(session: TableSession, tmp_path: Path) -> PhoneSeat:
    """The door's seat for one phone, holding `session` (nothing is connected: `_apply`
    only asks the session what to send)."""
    phone = PhoneSeat(Seat("s" * 32, "ana", tmp_path / "ana"), SeatBook(tmp_path), "127.0.0.1:9",
                      on_ended=lambda _seat: None)
    phone.session = session
    return phone


def test_the_door_sends_the_switch_between_matches_and_refuses_it_in_words_during_one(
        tmp_path: Path) -> None:
    (send,) = phone_at(session_at(), tmp_path)._apply(Intent("rated", flag=False))
    assert isinstance(send, Send) and send.message == Rated(rated=False)
    (notice,) = phone_at(session_at(phase=TablePhase.PLAYING), tmp_path)._apply(
        Intent("rated", flag=False))
    assert isinstance(notice, Notice) and "between matches" in notice.text
    with pytest.raises(PageError) as caught:  # a spectator's page has no switch to offer
        phone_at(session_at(role="spectator"), tmp_path)._apply(Intent("rated", flag=True))
    assert (caught.value.code, caught.value.ref) == ("not-now", "rated")
