"""A phone's coach's review and the evening's ratings as the door sends them, without a
browser: a real match played through a `PhoneSeat`'s session, the review refused (typed)
until it is over, then worked out in a real child process (`review_apart`) at a small
budget, its progress told play by play, one at a time, kept for the page that asks again,
and stopped when a new match is dealt; the evening's ratings in the state only when they
change (`evening_state`)."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from netproto.wire.messages import Lobby, SeatInfo, SeatKind, TablePhase, View, Welcome
from ono99tui import i18n
from ono99tui.game import MATCH_OVER, Play, apply, preset, start_match, view
from ono99tui.game.codec import event_to_wire, view_to_wire
from ono99tui.web.phone.intents import PageError
from ono99tui.web.phone.link import PhoneSeat
from ono99tui.web.phone.state import evening_state, page_state, state_frame
from ono99tui.web.seats import SeatBook

BUDGET_S = 0.01  # a small search per play: the figures are rough, the test is quick


def lobby(phase: TablePhase, results: dict[str, Any] | None = None) -> Lobby:
    return Lobby(phase=phase, you=0, capacity=2, results=results, seats=tuple(
        SeatInfo(seat, name, SeatKind.HUMAN, True, True)
        for seat, name in enumerate(("ana", "bob"))))


class Match:
    """A two-seat match of the engine, seat 0's views told to `phone`'s session; seat 0
    plays its highest card (the review then finds choices that cost something)."""

    def __init__(self, phone: PhoneSeat, seed: int, seq: int = 0) -> None:
        self.phone = phone
        self.rng = random.Random(seed)
        self.state, events = start_match(preset("2022"), 2, self.rng)
        self.seq = seq  # the views' numbers go on from the last match's
        self._tell(events)

    def _tell(self, events: Any) -> None:
        self.seq += 1
        self.phone.session.receive(View(seq=self.seq, view=view_to_wire(view(self.state, 0)),
                                        events=tuple(event_to_wire(e) for e in events)), 0.0)

    def move(self) -> None:
        seat = next(s for s in range(2) if view(self.state, s).legal_moves)
        moves = view(self.state, seat).legal_moves
        plays = [m for m in moves if type(m) is Play]
        move = max(plays, key=lambda m: int(m.card) if m.card.is_number else -1) \
            if seat == 0 and plays else moves[0]
        self.state, events = apply(self.state, move, self.rng)
        self._tell(events)

    def play_out(self) -> None:
        while self.state.phase != MATCH_OVER:
            self.move()


def make_phone(tmp_path: Path) -> tuple[PhoneSeat, list[dict[str, Any]]]:
    book = SeatBook(tmp_path / "players")
    phone = PhoneSeat(book.create("ana"), book, "127.0.0.1:9", on_ended=lambda _: None,
                      review_budget_s=BUDGET_S)
    frames: list[dict[str, Any]] = []

    async def collect(frame: dict[str, Any]) -> None:
        frames.append(frame)

    phone._frame = collect  # type: ignore[method-assign]  # what the page would be sent
    phone.review._send = collect
    session = phone.session
    session.connect()
    session.receive(Welcome(proto=1, role="player", seat=0, token="t",
                            table={"name": "T", "chat": True}), 0.0)
    session.receive(lobby(TablePhase.PLAYING), 0.0)
    return phone, frames


def children() -> list[str]:
    """This process's child processes (the review's), as /proc lists them."""
    found: list[str] = []
    for task in Path("/proc/self/task").iterdir():
        found += (task / "children").read_text().split()
    return found


async def until(condition: Any, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.02)


def test_a_review_is_refused_mid_match_then_worked_out_apart_once(tmp_path: Path) -> None:
    async def main() -> None:
        phone, frames = make_phone(tmp_path)
        i18n.speak_in_this_task(phone.language)  # as the page's task does (`attach`)
        match = Match(phone, seed=4)
        for _ in range(3):
            match.move()
        assert page_state(phone.session, 0.0)["may"]["review"] is False
        with pytest.raises(PageError) as refused:
            await phone._review()
        assert refused.value.frame() == {"t": "error", "code": "not-now", "detail": "",
                                         "ref": "review"}
        assert frames == [] and not phone.review.working
        match.play_out()
        assert page_state(phone.session, 0.0)["may"]["review"] is True
        decisions = phone.session.story.plays.decisions()
        await phone._review()
        assert phone.review.working
        await phone._review()  # a second tap while it works: told where it is, no other
        await until(lambda: frames and frames[-1]["phase"] == "ready")
        working = [f for f in frames if f["phase"] == "working"]
        assert working[0] == {"t": "review", "phase": "working", "done": 0,
                              "of": len(decisions),
                              "text": f"Reviewing your plays: 0 of {len(decisions)}..."}
        assert [f["done"] for f in working if f["done"]] == list(range(1, len(decisions) + 1))
        assert sum(1 for f in frames if f["phase"] == "ready") == 1
        ready = frames[-1]
        assert ready["summary"].startswith("Of your ")
        assert ready["plays"], "playing the highest card costs something in this match"
        costs = [play["cost"] for play in ready["plays"]]
        assert costs == sorted(costs, reverse=True) and costs[-1] >= 1
        for play in ready["plays"]:
            labels = [label for label, _ in play["hand"]]
            assert play["played"] in labels and play["best"] in labels
            assert play["played"] != play["best"]
            assert play["text"].startswith(f"At {play['total']} you played {play['played']};")
            assert play["position"] == (f"Round {play['round']}, total {play['total']} of "
                                        f"{play['limit']}; you held {', '.join(labels)}.")
            chances = dict(play["hand"])
            assert chances[play["best"]] - chances[play["played"]] in (play["cost"],
                                                                        play["cost"] + 1,
                                                                        play["cost"] - 1)
        # Asked again (a reloaded page): the same review, at once.
        frames.clear()
        await phone._review()
        assert frames == [ready] and not phone.review.working
        # In the language the page's menu chose since: the same review, in its words.
        phone.speak("be")
        frames.clear()
        await phone._review()
        assert frames[0]["plays"][0]["cost"] == ready["plays"][0]["cost"]
        assert frames[0]["summary"] != ready["summary"]
        assert frames[0]["summary"].startswith("З ")

    asyncio.run(main())


def test_a_new_match_stops_a_review_being_worked_out(tmp_path: Path) -> None:
    async def main() -> None:
        phone, frames = make_phone(tmp_path)
        match = Match(phone, seed=4)
        match.play_out()
        phone.review.budget_s = 2.0  # long enough to be under way when the deal comes
        await phone._review()
        await until(lambda: frames and children())
        assert phone.review.working
        # The rematch is dealt: the review of the last match is moot.
        phone.session.receive(lobby(TablePhase.PLAYING), 0.0)
        Match(phone, seed=9, seq=match.seq)
        assert not phone.session.may_review
        await phone._send([])
        assert not phone.review.working
        assert children() == []  # the review's child process was killed
        assert frames[-1] == {"t": "review", "phase": "stopped"}
        with pytest.raises(PageError):
            await phone._review()

    asyncio.run(main())


def test_the_evenings_ratings_are_sent_only_when_they_change(tmp_path: Path) -> None:
    phone, _ = make_phone(tmp_path)
    session = phone.session
    match = Match(phone, seed=4)
    match.play_out()
    assert evening_state(session) is None  # no rated match yet
    sent: dict[str, Any] = {}
    state_frame(sent, page_state(session, 0.0))
    rated = {"ratings": [{"rating": 1043, "change": 43}, {"rating": 957, "change": -43}]}
    session.receive(lobby(TablePhase.FINISHED, rated), 0.0)
    evening = evening_state(session)
    assert evening == {"m": [1], "p": [["ana", [1043]], ["bob", [957]]],
                       "s": "Ratings this evening: ana 1043 after one match; "
                            "bob 957 after one match."}
    frame = state_frame(sent, page_state(session, 0.0))
    assert frame is not None and frame.get("p", {}).get("evening") == evening
    # The lobby told again, or a move: nothing of the evening is sent again.
    session.receive(lobby(TablePhase.FINISHED, rated), 0.0)
    frame = state_frame(sent, page_state(session, 0.0))
    assert frame is None or ("evening" not in frame.get("p", {})
                             and not any(op[0] == "evening" for op in frame.get("d", ())))
    # A second rated match: the new values only.
    session.receive(lobby(TablePhase.PLAYING), 0.0)
    match = Match(phone, seed=5, seq=match.seq)
    match.play_out()
    later = replace(lobby(TablePhase.FINISHED), results={
        "ratings": [{"rating": 1060, "change": 17}, {"rating": 940, "change": -17}]})
    session.receive(later, 0.0)
    evening = evening_state(session)
    assert evening is not None and evening["m"] == [1, 2]
    assert evening["p"] == [["ana", [1043, 1060]], ["bob", [957, 940]]]
    frame = state_frame(sent, page_state(session, 0.0))
    assert frame is not None
    assert "evening" in frame.get("p", {}) or any(op[0] == "evening" for op in frame.get("d", ()))


def test_a_seat_that_closes_stops_its_review(tmp_path: Path) -> None:
    async def main() -> None:
        phone, frames = make_phone(tmp_path)
        Match(phone, seed=4).play_out()
        phone.review.budget_s = 2.0
        await phone._review()
        await until(lambda: frames and children())
        await phone.close()  # the page went for good (or the door closes)
        assert not phone.review.working and children() == []
        assert all(frame["phase"] == "working" for frame in frames)

    asyncio.run(main())
