"""The notices that ask a seated guest to say ready name what the front end has: the r key
in a terminal, the "I'm ready" button on a tapped one (`TableSession(touch=True)`, the
phone page), which has no keys to press. Pure."""

from __future__ import annotations

from pathlib import Path

from netproto.wire.messages import Lobby, SeatInfo, SeatKind, Welcome
from ono99tui.client.outputs import Notice, RoomOpened
from ono99tui.client.session import TableSession
from ono99tui.web.phone.link import PhoneSeat
from ono99tui.web.seats import Seat, SeatBook


def lobby(phase: str, *, ready: bool = False, target: int = 100) -> Lobby:
    return Lobby(phase=phase, seats=(
        SeatInfo(0, "Ann", SeatKind.HUMAN, ready, True),
        SeatInfo(1, "Bob", SeatKind.HUMAN, True, True)), host_seat=1, you=0, capacity=3,
        options={"target": target})


def guest(touch: bool) -> TableSession:
    session = TableSession(touch=touch)
    session.connect()
    session.receive(Welcome(proto=1, role="player", seat=0, token="t",
                            table={"name": "den", "chat": True, "room": True}), 0.0)
    return session


def told(outputs: list[object]) -> list[str]:
    texts = [o.text for o in outputs if isinstance(o, Notice)]
    texts += [o.notice.text for o in outputs if isinstance(o, RoomOpened) and o.notice]
    return texts


def test_the_room_opened_after_a_match_names_the_button_on_a_touch_front_end() -> None:
    for touch, words in ((True, "Tap \u201cI'm ready\u201d"), (False, "Press r")):
        session = guest(touch)
        session.receive(lobby("finished"), 1.0)
        (text,) = told(session.receive(lobby("waiting"), 2.0))
        assert words in text
        assert ("Press r" in text) is not touch


def test_the_ready_taken_back_by_a_rule_change_names_the_button_too() -> None:
    for touch, words in ((True, "tap \u201cI'm ready\u201d"), (False, "press r")):
        session = guest(touch)
        session.receive(lobby("waiting", ready=True), 1.0)
        (text,) = told(session.receive(lobby("waiting", target=50), 2.0))
        assert words in text
        assert ("press r" in text.lower()) is not touch


def test_the_phone_pages_session_is_a_touch_one(tmp_path: Path) -> None:
    phone = PhoneSeat(Seat("s" * 32, "ana", tmp_path / "ana"), SeatBook(tmp_path),
                      "127.0.0.1:9", on_ended=lambda _seat: None)
    assert phone.session.touch
