"""A duplicate table (docs/DUPLICATE.md) on a fake clock: the core deals a set's matches in
rotation with the same deals, shows the set's progress and, at its end, the comparison;
its journal takes a set up after a restart at the right deal and rotation."""

from __future__ import annotations

from typing import Any

import pytest
from core_clock_helpers import config
from test_core_journal_restore import JournaledTable

from netproto.wire.messages import SetOptions, Start
from ono99tui.game import PRESET_NAMES
from ono99tui.game.duplicate import rotation_seating
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal.resume import resume_point, standing_after

PLAYERS = ("ana", "Greedy bot", "Random bot")


def duplicate_table(rules: str = "2022") -> tuple[JournaledTable, int]:
    """Ana (the host, a person) and two bots at a duplicate table, nothing dealt."""
    table = JournaledTable(config(capacity=3, bot_delay=0.5, duplicate=True, rules=rules))
    ana = table.connect("ana")
    table.run(table.core.add_bot("greedy", table.now))
    table.run(table.core.add_bot("random", table.now))
    return table, ana


def deal_and_play(table: JournaledTable, host: int) -> tuple[Any, ...]:
    """Deal the next match and play it out; the hands as dealt, by seat."""
    table.send(host, Start())
    assert table.core.phase == PLAYING
    state = table.core.state
    assert state is not None
    hands = state.hands
    table.play_until(lambda: table.core.phase == FINISHED)
    return hands


def names(table: JournaledTable) -> tuple[str, ...]:
    return tuple(seat.name for seat in table.core.seats)


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_a_set_deals_each_rotation_the_same_cards_and_compares_at_its_end(rules: str) -> None:
    table, ana = duplicate_table(rules)
    dealt = []
    for rotation in range(3):
        dealt.append(deal_and_play(table, ana))
        assert names(table) == rotation_seating(PLAYERS, rotation)
        progress = table.lobby(ana).options["duplicate_set"]
        assert progress == {"deal": rotation + 1, "of": 3, "players": list(PLAYERS),
                            "complete": rotation == 2}
        results = table.lobby(ana).results["duplicate"]
        assert results["rotations"] == rotation + 1 and results["of"] == 3
        # The ratings' hook: the set's order only once its last deal is over.
        order = table.core.duplicate_order()
        assert (order is None) == (rotation < 2)
    assert order is not None and sorted(name for group in order for name in group) == \
        sorted(PLAYERS)
    assert [list(group) for group in order] == table.lobby(ana).results["duplicate"]["order"]
    # The same deal in every rotation: each seat held the same four cards each time.
    assert dealt[0] == dealt[1] == dealt[2]
    headers = [record for record in table.records if record["kind"] == "match"]
    assert len({header["seed"] for header in headers}) == 1
    assert [len(header["duplicate"]["places"]) for header in headers] == [0, 1, 2]
    results = table.lobby(ana).results["duplicate"]
    assert results["complete"]
    assert sorted(score["name"] for score in results["scores"]) == sorted(PLAYERS)
    assert sum(score["edge"] for score in results["scores"]) == pytest.approx(0, abs=1e-3)
    assert [hand["hand"] for hand in results["hands"]] == [0, 1, 2]
    for hand in results["hands"]:  # each hand held by all three, once each
        assert sorted(name for name, _ in hand["places"]) == sorted(PLAYERS)
        best = min(place for _, place in hand["places"])
        assert hand["best"] == [name for name, place in hand["places"] if place == best]
    # The set over, the next deal starts a new set (a new seed, the seats as they are).
    seated = names(table)
    deal_and_play(table, ana)
    header = [record for record in table.records if record["kind"] == "match"][-1]
    assert header["seed"] != headers[0]["seed"] and header["duplicate"]["places"] == []
    assert tuple(header["duplicate"]["players"]) == seated == names(table)


def test_a_table_without_duplicate_deals_as_before_and_the_host_may_switch_it() -> None:
    table = JournaledTable(config(capacity=2, bot_delay=0.5))
    ana = table.connect("ana")
    table.run(table.core.add_bot("greedy", table.now))
    deal_and_play(table, ana)
    header = table.records[0]
    assert "duplicate" not in header and table.lobby(ana).options["duplicate"] is False
    assert "duplicate" not in table.lobby(ana).results
    table.send(ana, SetOptions(options={"duplicate": True}))
    assert table.lobby(ana).options["duplicate"] is True
    assert table.core.table_options()["duplicate"] is True
    deal_and_play(table, ana)
    assert table.lobby(ana).options["duplicate_set"]["deal"] == 1
    # Switched off, the set in play is given up.
    table.send(ana, SetOptions(options={"duplicate": False}))
    assert "duplicate_set" not in table.lobby(ana).options
    from netproto.wire.errors import ApplicationError

    with pytest.raises(ApplicationError):
        table.send(ana, SetOptions(options={"duplicate": "yes"}))


def test_a_restart_mid_set_takes_it_up_at_the_right_deal_and_rotation() -> None:
    before, ana = duplicate_table("1980")
    first_deal = deal_and_play(before, ana)
    before.send(ana, Start())  # rotation 1, killed part way through
    before.play_until(lambda: before.moves_played() >= 6)
    point = resume_point(before.records)
    assert point is not None and point.duplicate is not None
    after = JournaledTable(config(capacity=3, bot_delay=0.5, duplicate=True, rules="1980"))
    after.run(after.core.restore(point, after.now))
    assert after.core.state == before.core.state
    assert names(after) == rotation_seating(PLAYERS, 1)
    assert after.core.duplicate_set is not None and after.core.duplicate_set.rotation == 1
    # Ana comes back; the rotation is played to its end and the set goes on to its last.
    token = before.welcome(ana).token
    ana_again = after.resume(token)
    after.play_until(lambda: after.core.phase == FINISHED)
    assert after.lobby(ana_again).options["duplicate_set"]["deal"] == 2
    assert deal_and_play(after, ana_again) == first_deal
    assert names(after) == rotation_seating(PLAYERS, 2)
    assert after.lobby(ana_again).results["duplicate"]["complete"]


def test_a_restart_between_rotations_deals_the_next_one() -> None:
    before, ana = duplicate_table()
    first_deal = deal_and_play(before, ana)
    standing = standing_after(before.records)
    assert standing is not None and standing.duplicate is not None
    after = JournaledTable(config(capacity=3, bot_delay=0.5, duplicate=True))
    after.run(after.core.go_on_from(standing, after.now))
    host = after.connect("ana")
    after.run(after.core.add_bot("greedy", after.now))
    after.run(after.core.add_bot("random", after.now))
    assert deal_and_play(after, host) == first_deal
    assert names(after) == rotation_seating(PLAYERS, 1)
    header = [record for record in after.records if record["kind"] == "match"][-1]
    assert header["seed"] == before.records[0]["seed"]


def test_a_set_is_rated_once_at_its_end_from_its_comparison() -> None:
    """Ratings (issue 28): the deals before a set's last are not rated on their own; the
    last one rates the set's players from the set's order (`duplicate_order`)."""
    from ono99tui.host.ratings import PLAYER, Rated, RatingBook

    table = JournaledTable(config(capacity=2, bot_delay=0.5, duplicate=True),
                           ratings=RatingBook())
    ana = table.connect("ana")
    table.run(table.core.add_bot("greedy", table.now))
    deal_and_play(table, ana)
    assert table.ratings_changed == [] and "ratings" not in table.lobby(ana).results
    deal_and_play(table, ana)
    (kept,) = table.ratings_changed
    order = table.core.duplicate_order()
    assert order is not None
    ana_change = next(change for change in kept.changes if change.who == Rated(PLAYER, "ana"))
    bot_change = next(change for change in kept.changes if change.who != Rated(PLAYER, "ana"))
    if len(order) == 1:  # a dead heat: a tie moves both alike
        assert ana_change.after.mu == pytest.approx(bot_change.after.mu)
    else:
        first = ana_change if order[0] == ("ana",) else bot_change
        assert first.after.mu > first.before.mu
    assert "ratings" in table.lobby(ana).results
