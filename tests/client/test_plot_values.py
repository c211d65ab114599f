"""What the plots draw (`client/plots.py`): the total after each play of a round with its
busts, from a real match's events; the evening's ratings, from each finished match's
lobby as the session takes it; and the sentences line mode says instead (`words/plots.py`)."""

from __future__ import annotations

from dataclasses import replace

from scripted_table import ScriptedTable, seated_session

from netproto.wire.messages import TablePhase
from ono99tui.client.plots import EVENING_MATCHES, EveningRatings, RatingPoint, round_totals
from ono99tui.client.session import TableSession
from ono99tui.game import Busted, Played, RoundDealt, RoundEnded
from ono99tui.words.plots import evening_summary, round_summary


def _rounds(events: list) -> list[list]:
    rounds: list[list] = []
    for event in events:
        if isinstance(event, RoundDealt):
            rounds.append([])
        if rounds:
            rounds[-1].append(event)
    return rounds


def test_each_round_has_one_point_per_play_and_its_busts_where_they_came() -> None:
    table = ScriptedTable(rules="1980", seed=3)
    table.play_until(lambda t: t.over)
    events = table.history
    rounds = _rounds(events)
    assert len(rounds) >= 2
    last = rounds[-1]
    totals = round_totals(events)
    assert totals is not None and totals.ended
    assert totals.round_no == last[0].round_no
    plays = [event for event in last if isinstance(event, Played)]
    assert totals.totals == tuple(play.total for play in plays)
    assert totals.seats == tuple(play.seat for play in plays)
    busts = [event for event in last if isinstance(event, Busted)]
    assert [(b.seat, b.total) for b in totals.busts] == [(b.seat, b.total) for b in busts]
    assert busts, "a 1980 round ends with a bust"
    # The bust comes after the plays before it in the round.
    index = last.index(busts[0])
    assert totals.busts[0].play == sum(isinstance(e, Played) for e in last[:index])
    # Mid-round: the round being played, not the last one that ended.
    second = events.index(rounds[1][0])
    partial = events[: second + 4]
    now = round_totals(partial)
    assert now is not None and not now.ended and now.round_no == rounds[1][0].round_no
    assert len(now.totals) == sum(isinstance(e, Played) for e in partial[second:])
    done = round_totals(partial, finished=True)
    assert done is not None and done.ended and done.round_no == rounds[0][0].round_no
    assert round_totals([]) is None
    assert round_totals([e for e in events if not isinstance(e, RoundEnded)][:1]) is not None


def test_the_round_in_a_sentence() -> None:
    table = ScriptedTable(rules="1980", seed=3)
    table.play_until(lambda t: t.over)
    totals = round_totals(table.history)
    assert totals is not None
    text = round_summary(totals, table.names)
    bust = totals.busts[0]
    assert text.startswith(f"In round {totals.round_no} the total went from 0 to "
                           f"{totals.totals[-1]} in {len(totals.totals)} plays; ")
    assert f"{table.names[bust.seat]} busted at {bust.total}" in text and text.endswith(".")
    one = replace(totals, totals=(7,), seats=(0,), busts=())
    assert round_summary(one, table.names) == (
        f"In round {totals.round_no} the total went from 0 to 7 in 1 play.")


def test_the_session_keeps_each_rated_matchs_ratings_once() -> None:
    table = ScriptedTable(rules="1980", seed=3)
    session = seated_session(table)
    table.play_until(lambda t: t.over)
    session.receive(table.view(0), 1.0)
    finished = table.lobby(0, phase=TablePhase.FINISHED)
    rated = replace(finished, results={"ratings": [{"rating": 1043, "change": 23},
                                                   None, {"rating": 980, "change": -20}]})
    session.receive(rated, 1.0)
    session.receive(rated, 2.0)  # sent again while the table stays finished: taken once
    match = session.story.matches_started
    assert session.evening.series() == {"ana": [RatingPoint(match, 1043)],
                                        "cy": [RatingPoint(match, 980)]}
    # A table that rates nobody sends none: nothing is kept.
    unrated = EveningRatings()
    assert not unrated.record(1, table.names, {"ratings": None})
    assert not unrated.record(1, table.names, {"ratings": [None, None, None]})
    assert not unrated.record(1, table.names, {"ratings": [{"rating": 1}]})  # wrong length
    assert unrated.series() == {} and evening_summary(unrated.series()) == ""


def test_one_seated_after_the_match_keeps_none_of_its_ratings() -> None:
    """A newcomer takes a bot's seat between matches: the finished lobby's ratings are in
    the match's seat order, so under the seats as they are now they would name the wrong
    players (the newcomer, who never played, with another's rating)."""
    table = ScriptedTable(rules="1980", seed=3)
    table.play_until(lambda t: t.over)
    newcomer = TableSession()
    newcomer.connect()
    newcomer.receive(table.welcome(2, token="late"), 0.0)
    now = replace(table.lobby(2, phase=TablePhase.FINISHED, names=("ana", "cy", "dee")),
                  results={"ratings": [{"rating": 1043, "change": 23},
                                       {"rating": 1010, "change": 10},
                                       {"rating": 980, "change": -20}]})
    newcomer.receive(now, 1.0)
    newcomer.receive(now, 2.0)
    assert newcomer.evening.series() == {}


def test_the_evening_is_bounded_and_told_in_a_sentence() -> None:
    evening = EveningRatings()
    for match in range(1, EVENING_MATCHES + 11):
        assert evening.record(match, ["ana", "bob"],
                              {"ratings": [{"rating": 1000 + match, "change": 1}, None]})
    series = evening.series()
    assert list(series) == ["ana"]
    assert len(series["ana"]) == EVENING_MATCHES and series["ana"][0].match == 11
    assert evening_summary(series) == (
        f"Ratings this evening: ana 1011 to {1000 + EVENING_MATCHES + 10} over "
        f"{EVENING_MATCHES} matches.")


def test_a_match_of_one_round_ends_its_round_with_the_match() -> None:
    table = ScriptedTable(rules="2022", seed=3)  # 2022: busts eliminate, one round
    table.play_until(lambda t: t.over)
    assert not any(isinstance(event, RoundEnded) for event in table.history)
    totals = round_totals(table.history, finished=True)
    assert totals is not None and totals.ended and totals.round_no == 1
    assert totals.totals == tuple(e.total for e in table.history if isinstance(e, Played))
    assert len(totals.busts) == len(table.names) - 1  # all but the winner busted


def test_one_rated_match_says_the_rating_after_it_not_a_change() -> None:
    # "ana 1043 to 1043 over 1 match" read as if the rating had not moved.
    series = {"ana": [RatingPoint(1, 1043)], "bob": [RatingPoint(1, 957), RatingPoint(2, 990)]}
    assert evening_summary(series) == (
        "Ratings this evening: ana 1043 after one match; bob 957 to 990 over 2 matches.")
