"""Ratings across evenings (`host.ratings`): the updates against openskill's own Plackett–Luce
at fixed inputs, one worked by hand, the shown number, bots by level, unrated players,
merges; and the table core rating a finished match on a fake clock."""

from __future__ import annotations

import pytest
from core_clock_helpers import ClockedTable, config
from openskill.models import PlackettLuce

from netproto.wire.messages import Lobby, Start
from ono99tui.host.core import FINISHED
from ono99tui.host.ratings import (
    BOT,
    PLAYER,
    Entrant,
    MergeError,
    Rated,
    Rating,
    RatingBook,
    merged,
    rate_match,
    shown,
)

ANN, BOB, CY, DI = (Rated(PLAYER, name) for name in ("Ann", "Bob", "Cy", "Di"))
HARD, NORMAL = Rated(BOT, "hard"), Rated(BOT, "normal")


def reference(befores: list[Rating], ranks: list[float]) -> list[tuple[float, float]]:
    """(mu, sigma) after, as openskill's own model rates these teams of one."""
    model = PlackettLuce()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in befores]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


@pytest.mark.parametrize("ranks", [[0, 1, 2, 3], [3, 1, 0, 2], [0, 1, 1, 2], [1, 0]])
def test_a_match_is_rated_as_openskill_rates_its_finishing_order(ranks: list[int]) -> None:
    people = [ANN, BOB, CY, DI][:len(ranks)]
    book = RatingBook({ANN: Rating(30.0, 5.0, 12), BOB: Rating(22.5, 7.0, 3),
                       CY: Rating(25.0, 25 / 3, 0)})  # Di is new
    befores = [book.get(who) for who in people]
    expected = reference(befores, [float(rank) for rank in ranks])
    after, changes = rate_match(book, [Entrant(who, rank)
                                       for who, rank in zip(people, ranks, strict=True)])
    assert [change.who for change in changes] == people
    for who, before, (mu, sigma) in zip(people, befores, expected, strict=True):
        rating = after.get(who)
        assert rating.mu == pytest.approx(mu, abs=1e-12)
        assert rating.sigma == pytest.approx(sigma, abs=1e-12)
        assert rating.matches == before.matches + 1
    assert book.get(ANN) == Rating(30.0, 5.0, 12)  # the book is a value: unchanged


def test_two_new_players_worked_by_hand() -> None:
    """Weng & Lin's Algorithm 4 for two new players (mu 25, sigma 25/3, beta 25/6, tau
    25/300): sigma² = 625/9 + tau² = 69.4514; c² = 2(sigma² + beta²) = 173.625, c = 13.1767;
    each wins with p = 1/2, so the winner gains sigma²/c × 1/2 = 2.6354 and the loser
    loses as much; sigma² shrinks by gamma sigma²/c² p(1 - p), gamma = sigma/c: to 8.0659."""
    after, changes = rate_match(RatingBook(), [Entrant(ANN, 0), Entrant(BOB, 1)])
    assert after.get(ANN).mu == pytest.approx(25 + 2.6354, abs=1e-4)
    assert after.get(BOB).mu == pytest.approx(25 - 2.6354, abs=1e-4)
    assert after.get(ANN).sigma == pytest.approx(8.0659, abs=1e-4)
    # Shown: 1000 + 40 (mu - 3 sigma): a new player's 1000; then 1138 and 927.
    assert Rating().shown == 1000
    assert [change.after.shown for change in changes] == [1138, 927]
    assert [change.shown_change for change in changes] == [138, -73]
    assert shown(25.0, 25 / 3) == 1000


def test_a_level_with_two_seats_takes_both_updates_and_others_as_the_reference() -> None:
    book = RatingBook({HARD: Rating(28.0, 3.0, 40)})
    entrants = [Entrant(HARD, 0), Entrant(ANN, 1), Entrant(HARD, 2)]
    after, changes = rate_match(book, entrants)
    expected = reference([book.get(HARD), Rating(), book.get(HARD)], [0.0, 1.0, 2.0])
    assert [change.who for change in changes] == [HARD, ANN]  # one change per rating
    hard = after.get(HARD)
    assert hard.mu == pytest.approx(28.0 + (expected[0][0] - 28.0) + (expected[2][0] - 28.0))
    assert hard.sigma == pytest.approx(3.0 * (expected[0][1] / 3.0) * (expected[2][1] / 3.0))
    assert hard.matches == 41
    assert after.get(ANN).mu == pytest.approx(expected[1][0])


def test_an_unrated_player_is_left_out_and_the_others_rated_among_themselves() -> None:
    book = RatingBook({ANN: Rating(27.0, 6.0, 5), BOB: Rating(24.0, 6.5, 5)})
    after, changes = rate_match(book, [Entrant(CY, 0, unrated=True), Entrant(ANN, 1),
                                       Entrant(BOB, 2)])
    assert not after.has(CY) and CY not in {change.who for change in changes}
    expected = reference([book.get(ANN), book.get(BOB)], [1.0, 2.0])
    assert (after.get(ANN).mu, after.get(BOB).mu) == pytest.approx(
        (expected[0][0], expected[1][0]))
    # With one rated seat left nothing is rated.
    alone, none = rate_match(book, [Entrant(CY, 0, unrated=True), Entrant(ANN, 1)])
    assert alone is book and none == ()


def test_a_match_is_never_rated_twice() -> None:
    once, changes = rate_match(RatingBook(), [Entrant(ANN, 0), Entrant(BOB, 1)], "t#1#9")
    assert changes and once.rated == ("t#1#9",)
    twice, again = rate_match(once, [Entrant(ANN, 0), Entrant(BOB, 1)], "t#1#9")
    assert twice is once and again == ()


def test_a_rename_merges_into_the_surer_rating() -> None:
    book = RatingBook({ANN: Rating(30.0, 2.0, 50), Rated(PLAYER, "Annie"): Rating(20.0, 6.0, 4),
                       HARD: Rating(27.0, 1.5, 900)})
    into_new = merged(book, "Annie", "Anna")
    assert into_new.get(Rated(PLAYER, "Anna")) == Rating(20.0, 6.0, 4)
    assert not into_new.has(Rated(PLAYER, "Annie"))
    both = merged(book, "Annie", "Ann")
    assert both.get(ANN) == Rating(30.0, 2.0, 54)  # Ann's is the surer; the matches add up
    assert both.get(HARD) == book.get(HARD)
    with pytest.raises(MergeError, match="nobody named 'Zed'"):
        merged(book, "Zed", "Ann")
    with pytest.raises(MergeError, match="same name"):
        merged(book, "Ann", "Ann")
    # A bot level is not a player: "Hard bot" names nobody.
    with pytest.raises(MergeError):
        merged(book, "Hard bot", "Ann")


def finished_rated_table(book: RatingBook, **hello: object) -> tuple[ClockedTable, int, int]:
    """Ann (who deals) and Bob, with a hard and a normal bot, at the end of one match."""
    table = ClockedTable(config(capacity=4, bot_delay=0.5), ratings=book)
    ann, bob = table.connect("Ann"), table.connect("Bob", **hello)
    table.run(table.core.add_bot("hard", table.now))
    table.run(table.core.add_bot("normal", table.now))
    table.send(ann, Start())
    table.play_until(lambda: table.core.phase == FINISHED)
    return table, ann, bob


def test_the_core_rates_a_finished_match_and_tells_the_seats() -> None:
    book = RatingBook({ANN: Rating(26.0, 5.0, 9), HARD: Rating(27.5, 1.6, 3000)})
    table, _ann, bob = finished_rated_table(book)
    (kept,) = table.ratings_changed
    state = table.core.state
    assert state is not None
    names = [seat.name for seat in table.core.seats]
    assert kept.match_id.startswith(f"{table.core.config.name}#1#")
    who = {change.who for change in kept.changes}
    assert who == {ANN, Rated(PLAYER, "Bob"), HARD, Rated(BOT, "normal")}
    # The core's book went on from the match: what it shows now is the change's after.
    lobby = table.lobby(bob)
    assert isinstance(lobby, Lobby) and lobby.phase == "finished"
    by_name = {change.who.label: change for change in kept.changes}
    labels = {"Ann": "Ann", "Bob": "Bob", "Hard bot": "Hard bot", "Normal bot": "Normal bot"}
    for seat, name in zip(lobby.seats, names, strict=True):
        change = by_name[labels[name]]
        assert seat.rating == change.after.shown
        entry = lobby.results["ratings"][seat.seat]
        assert entry == {"rating": change.after.shown, "change": change.shown_change}
    # The winner's rating went up.
    won = by_name[labels[names[state.winners[0]]]]
    assert won.after.mu > won.before.mu and won.shown_change > 0
    assert table.core.ratings is not None and table.core.ratings.get(ANN) == by_name["Ann"].after


def test_an_unrated_player_has_no_rating_shown_and_is_not_rated() -> None:
    table, ann, _bob = finished_rated_table(RatingBook(), unrated=True)
    (kept,) = table.ratings_changed
    assert Rated(PLAYER, "Bob") not in {change.who for change in kept.changes}
    lobby = table.lobby(ann)
    bob_seat = next(seat for seat in lobby.seats if seat.name == "Bob")
    assert bob_seat.rating is None and lobby.results["ratings"][bob_seat.seat] is None
    assert next(seat for seat in lobby.seats if seat.name == "Ann").rating is not None


def test_a_table_without_ratings_rates_nobody_and_shows_none() -> None:
    table = ClockedTable(config(capacity=3, bot_delay=0.5))
    ann = table.connect("Ann")
    table.run(table.core.add_bot("greedy", table.now))
    table.send(ann, Start())
    table.play_until(lambda: table.core.phase == FINISHED)
    assert table.ratings_changed == []
    lobby = table.lobby(ann)
    assert all(seat.rating is None for seat in lobby.seats)
    assert "ratings" not in lobby.results
    assert "rating" not in lobby.seats[0].to_wire()


def test_a_match_taken_up_after_a_restart_is_rated_once_and_keeps_who_is_unrated() -> None:
    from ono99tui.host.journal.records import JOURNAL_RECORDS
    from ono99tui.host.journal.resume import record_to_map, resume_point

    records: list[dict[str, object]] = []

    class Journaled(ClockedTable):
        def run(self, outputs: list) -> list:  # type: ignore[type-arg]
            records.extend(record_to_map(output) for output in outputs
                           if isinstance(output, JOURNAL_RECORDS))
            return super().run(outputs)

    first = Journaled(config(capacity=3, bot_delay=0.5, grace_seconds=30.0),
                      ratings=RatingBook())
    ann = first.connect("Ann")
    first.connect("Bob", unrated=True)
    first.run(first.core.add_bot("greedy", first.now))
    first.send(ann, Start())
    first.play_until(lambda: first.moves_played() >= 6)
    assert records[0]["unrated"] == [1]
    point = resume_point(records)
    assert point is not None and point.unrated == (1,)
    # The host is killed; a new one takes the match up and it is played to its end.
    second = ClockedTable(config(capacity=3, bot_delay=0.5, grace_seconds=30.0),
                          ratings=RatingBook())
    second.run(second.core.restore(point, second.now))
    assert [seat.unrated for seat in second.core.seats] == [False, True, False]
    # Nobody comes back: past the grace period bots play the humans' seats on.
    second.play_until(lambda: second.core.phase == FINISHED, limit=20000)
    (kept,) = second.ratings_changed
    assert {change.who for change in kept.changes} == {ANN, NORMAL}
    assert kept.match_id == f"{second.core.config.name}#1#{point.seed}"
    # The same match ended again (its `won` record lost to a power cut): not rated twice.
    assert second.core.ratings is not None and kept.match_id in second.core.ratings.rated


def test_a_player_who_left_is_rated_last_whatever_the_bot_made_of_the_seat() -> None:
    from ono99tui.game.finish import elimination_groups, finishing_ranks

    book = RatingBook({ANN: Rating(26.0, 5.0, 9), Rated(PLAYER, "Bob"): Rating(24.0, 6.0, 4)})
    table = ClockedTable(config(capacity=3, bot_delay=0.5, grace_seconds=5.0), ratings=book)
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.run(table.core.add_bot("greedy", table.now))
    table.send(ann, Start())
    table.play_until(lambda: table.moves_played() >= 2)
    table.drop(bob)  # and never comes back: past the grace period a bot plays on for him
    table.play_until(lambda: table.core.phase == FINISHED)
    assert table.core.seats[1].taken_over
    state = table.core.state
    assert state is not None
    played = list(finishing_ranks(state, elimination_groups(
        (event.get("kind", ""), event.get("seat")) for event in table.core.match_events)))
    expected_places = [*played[:1], max(played) + 1, played[2]]
    _, expected = rate_match(book, [Entrant(ANN, expected_places[0]),
                                    Entrant(Rated(PLAYER, "Bob"), expected_places[1]),
                                    Entrant(NORMAL, expected_places[2])])
    (kept,) = table.ratings_changed
    assert kept.changes == expected
    bob_change = next(change for change in kept.changes if change.who.name == "Bob")
    assert bob_change.after.mu < bob_change.before.mu  # last: his rating goes down
