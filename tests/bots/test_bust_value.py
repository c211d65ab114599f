"""The first-bust horizon of 2022 play-outs: the table, its keys and its wiring."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from ono99tui.bots import bust_value as bv
from ono99tui.bots.make_bust_values import measure
from ono99tui.bots.playout import PLAYING, World
from ono99tui.bots.search import playout
from ono99tui.game import Scoring, preset

RULES = preset("2022")


def _world_after_first_bust(seats: int, seed: int) -> World:
    """A greedy self-play world just after its first bust."""
    world = World.start(RULES, seats, random.Random(seed))
    while not world.busts:
        world.step()
    assert world.phase == PLAYING
    return world


def test_the_table_is_for_single_scoring_with_the_2022_cards() -> None:
    assert bv.applies_to(RULES)
    assert bv.applies_to(dataclasses.replace(RULES, target=150, late_draw_penalty=True))
    assert not bv.applies_to(dataclasses.replace(RULES, scoring=Scoring.TOKENS))
    assert not bv.applies_to(dataclasses.replace(RULES, bust_at=120))
    assert not bv.applies_to(dataclasses.replace(preset("1980"), scoring=Scoring.SINGLE))


@pytest.mark.parametrize("content", [None, b"", b"{not json", b'{"values": [[1, "x", 2]]}',
                                     b'{"rows": []}', b"\xff\xfe"])
def test_a_missing_or_damaged_table_only_costs_precision(
        content: bytes | None, tmp_path, monkeypatch, caplog) -> None:
    path = tmp_path / "bust_values.json"
    if content is not None:
        path.write_bytes(content)
    monkeypatch.setattr(bv, "TABLE_PATH", path)
    bv.table.cache_clear()
    bv.table_readable.cache_clear()
    try:
        with pytest.raises(bv.TableUnreadable, match=r"bust_values\.json"):
            bv.table()
        assert not bv.applies_to(RULES)  # the search plays to the end instead
        assert "play-outs run to the end" in caplog.text
        # A whole match with a hard bot still plays.
        from ono99tui.bots.arena import play_one
        from ono99tui.bots.greedy import GreedyBot
        from ono99tui.bots.hard import HardBot

        winners, _, _ = play_one(RULES, (HardBot(0.001), GreedyBot(), GreedyBot()), 3, 4)
        assert len(winners) == 1
    finally:
        bv.table.cache_clear()
        bv.table_readable.cache_clear()


def test_features_count_turns_and_always_playable_cards() -> None:
    world = _world_after_first_bust(5, 3)
    world.hands = [[11, 11, 0, 5], [12, 7, 8, 9], [13, 14, 1, 2], [3, 4, 6, 10], [10, 10, 10, 10]]
    world.alive = [True, True, False, True, True]
    world.turn, world.direction = 3, 1
    # Turn order from seat 3: 3, 4, 0, 1 (seat 2 is out).
    assert bv.features(world, 0) == (4, 2, 2, 3, 1, 0)
    assert bv.features(world, 3) == (4, 0, 0, 0, 4, 2)
    world.direction = -1  # 3, 1, 0, 4
    assert bv.features(world, 0) == (4, 2, 2, 3, 1, 0)
    assert bv.features(world, 4) == (4, 3, 0, 0, 4, 2)


def test_a_rare_key_falls_back_to_a_coarser_one_then_to_one_in_k(monkeypatch) -> None:
    world = _world_after_first_bust(4, 5)
    me = next(seat for seat in range(4) if world.alive[seat])
    key = bv.features(world, me)
    values = {key: (0.9, 5), key[:5]: (0.7, 500), (key[0], key[1], key[3]): (0.6, 900)}
    monkeypatch.setattr(bv, "table", lambda: values)
    assert bv.bust_value(world, me) == 0.7
    del values[key[:5]]
    assert bv.bust_value(world, me) == 0.6
    values.clear()
    assert bv.bust_value(world, me) == pytest.approx(1 / key[0])


def test_the_stored_table_agrees_with_a_fresh_measurement() -> None:
    # Another seed, far fewer matches: every well-filled coarse key must agree with the
    # stored mean within five standard errors of the fresh one (and a point: positions of one match are not independent) (a stale or broken table,
    # or features that changed meaning, fail here).
    fresh = measure(1500, seed=12345)
    stored = bv.table()
    compared = 0
    for key, (mean, count) in fresh.items():
        if len(key) != 3 or count < 500:
            continue
        assert key in stored, key
        se = math.sqrt(max(mean * (1 - mean), 0.01) / count)
        assert abs(stored[key][0] - mean) < 5 * se + 0.01, (key, stored[key], mean, count)
        compared += 1
    assert compared >= 20


def test_play_outs_to_the_first_bust_match_play_outs_to_the_end_on_average() -> None:
    # Over positions drawn from greedy self-play the table is the conditional mean, so
    # stopping at the first bust must not move the average result (it only removes noise).
    rng = random.Random(7)
    to_end: list[float] = []
    to_bust: list[float] = []
    for match in range(700):
        world = World.start(RULES, 4, random.Random(match))
        for _ in range(rng.randrange(4, 30)):
            if world.phase != PLAYING or sum(world.alive) < 3:
                break
            world.step()
        if world.phase != PLAYING or sum(world.alive) < 3:
            continue
        me = world.turn
        card = world.greedy()
        seed = rng.getrandbits(32)
        to_end.append(playout(world.copy(random.Random(seed)), me, card)[0])
        to_bust.append(playout(world.copy(random.Random(seed)), me, card, at_bust=True)[0])
    n = len(to_end)
    diffs = [a - b for a, b in zip(to_end, to_bust, strict=True)]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    assert n > 500
    assert abs(mean) < 3 * se + 0.005, (mean, se)
    # And the point of it: far less noise per play-out.
    var_end = sum((v - sum(to_end) / n) ** 2 for v in to_end) / n
    var_bust = sum((v - sum(to_bust) / n) ** 2 for v in to_bust) / n
    assert var_bust < 0.5 * var_end
