"""The client session's rating switch (`set_rated`, `rated`, `may_set_rated`): read from
the lobby, sent only between matches by a seated player at a table that rates, refused in
words otherwise; the table's own refusal is told in the player's words. Pure."""

from __future__ import annotations

from netproto.wire.messages import Error, Lobby, Rated, SeatInfo, SeatKind, Welcome
from ono99tui.client.outputs import Notice, Send
from ono99tui.client.session import TableSession


def welcome(*, rates: bool = True, role: str = "player") -> Welcome:
    table = {"name": "den", "chat": True, "room": True, **({"rates": True} if rates else {})}
    return Welcome(proto=1, role=role, seat=0 if role == "player" else None,
                   token="t" if role == "player" else None, table=table)


def lobby(phase: str = "waiting", *, unrated: bool = False, you: int | None = 0) -> Lobby:
    return Lobby(phase=phase, seats=(
        SeatInfo(0, "Ann", SeatKind.HUMAN, False, True, rating=None if unrated else 1000,
                 unrated=unrated),
        SeatInfo(1, "Bob", SeatKind.HUMAN, True, True, rating=1000)), host_seat=1, you=you,
        capacity=3)


def session_at(*items: object) -> TableSession:
    session = TableSession()
    session.connect()
    for item in items:
        session.receive(item, 0.0)
    return session


def test_the_state_comes_from_the_lobby_and_the_switch_sends_rated() -> None:
    session = session_at(welcome(), lobby())
    assert session.rated is True and session.may_set_rated
    assert session.set_rated(False) == [Send(Rated(rated=False), "Could not change your rating")]
    session.receive(lobby(unrated=True), 1.0)
    assert session.rated is False
    session.receive(lobby("finished", unrated=True), 2.0)
    assert session.may_set_rated  # between matches too
    (send,) = session.set_rated(True)
    assert isinstance(send, Send) and send.message == Rated(rated=True)


def test_during_a_match_nothing_is_sent_and_the_player_is_told_why() -> None:
    session = session_at(welcome(), lobby("playing"))
    assert session.rated is True and not session.may_set_rated
    (notice,) = session.set_rated(False)
    assert isinstance(notice, Notice) and "between matches" in notice.text
    # A switch that crossed the deal on the wire: the table's refusal, in words.
    (told,) = session.receive(Error(code="match-running", reason="not while a match is "
                                    "being played", ref="rated"), 3.0)
    assert isinstance(told, Notice) and told.text == "not while a match is being played"


def test_a_spectator_or_a_table_that_rates_nobody_has_no_switch() -> None:
    watching = session_at(welcome(role="spectator"), lobby(you=None))
    assert watching.rated is None and not watching.may_set_rated
    (notice,) = watching.set_rated(False)
    assert isinstance(notice, Notice) and "watching" in notice.text
    plain = session_at(welcome(rates=False), lobby())
    assert plain.rated is None and not plain.may_set_rated
    assert not any(isinstance(output, Send) for output in plain.set_rated(False))
