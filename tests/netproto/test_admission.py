"""`AdmissionPool` alone: who is let in, who is displaced, deadlines on a fake clock."""

from __future__ import annotations

import pytest

from netproto.admission import AdmissionPool


def test_an_address_over_its_share_displaces_only_its_own_oldest_idle() -> None:
    pool: AdmissionPool[str] = AdmissionPool(per_address=2, in_all=10)
    assert pool.admit("a1", "10.0.0.1", 0.0, 5.0).admitted
    assert pool.admit("a2", "10.0.0.1", 1.0, 6.0).admitted
    pool.advance("a1", 2)  # a1 began to log in: the idle a2 goes first
    decided = pool.admit("a3", "10.0.0.1", 2.0, 7.0)
    assert decided.admitted and decided.displaced == ("a2",)
    assert "from one address" in decided.reason
    assert pool.held_by("10.0.0.1") == 2 and "a1" in pool and "a3" in pool


def test_a_full_pool_displaces_the_busiest_address_never_the_newcomers_neighbours() -> None:
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=4)
    for key, address in (("b1", "10.0.0.2"), ("b2", "10.0.0.2"), ("b3", "10.0.0.2"),
                         ("c1", "10.0.0.3")):
        pool.admit(key, address, 0.0, 9.0)
    decided = pool.admit("d1", "10.0.0.4", 1.0, 9.0)
    assert decided.displaced == ("b1",) and decided.admitted
    # Now 10.0.0.2 holds 2, the others 1 each: a newcomer from 10.0.0.3 displaces one of
    # 10.0.0.2's; then 10.0.0.3 holds the most, and pays for the next newcomer.
    assert pool.admit("c2", "10.0.0.3", 2.0, 9.0).displaced == ("b2",)
    assert pool.admit("b4", "10.0.0.2", 3.0, 9.0).displaced == ("c1",)


def test_a_newcomer_from_the_busiest_address_is_refused_when_all_hold_alike() -> None:
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=2)
    pool.admit("a", "10.0.0.1", 0.0, 9.0)
    pool.admit("b", "10.0.0.2", 0.0, 9.0)
    decided = pool.admit("c", "10.0.0.1", 1.0, 9.0)
    assert not decided.admitted and decided.displaced == ()
    assert "c" not in pool and len(pool) == 2


def test_deadlines_on_a_fake_clock() -> None:
    pool: AdmissionPool[str] = AdmissionPool(per_address=8, in_all=8)
    pool.admit("silent", "10.0.0.1", 0.0, 5.0)
    pool.admit("talks", "10.0.0.1", 0.0, 5.0)
    pool.advance("talks", 1, float("inf"))  # a real client: no deadline of the pool's
    assert pool.expired(4.99) == []
    assert pool.expired(5.0) == ["silent"]
    assert "silent" not in pool and pool.stage_of("talks") == 1
    pool.set_stage("talks", 0, 20.0)  # back to idle (an HTTP keep-alive)
    assert pool.expired(19.0) == [] and pool.expired(20.0) == ["talks"]


def test_a_pool_must_hold_something() -> None:
    with pytest.raises(ValueError):
        AdmissionPool(per_address=0, in_all=4)


def test_when_every_address_holds_as_many_the_lowest_stage_of_them_all_goes() -> None:
    # Thirty guessers with one connection each and a player logging in: the player's
    # connection, further on, must not go just because its address came first.
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=3)
    pool.admit("player", "10.0.0.1", 0.0, 9.0, stage=3)
    pool.admit("guesser-a", "10.0.0.2", 1.0, 9.0, stage=0)
    pool.admit("guesser-b", "10.0.0.3", 2.0, 9.0, stage=0)
    assert pool.admit("guesser-c", "10.0.0.4", 3.0, 9.0).displaced == ("guesser-a",)
    assert pool.admit("guesser-d", "10.0.0.5", 4.0, 9.0).displaced == ("guesser-b",)
    assert "player" in pool


def test_a_young_login_under_way_is_protected_from_a_churning_flood() -> None:
    # Found by bench/admission.py --guessing: thirty addresses reopening SSH connections
    # as fast as they could displaced every login in its key exchange (0 of 19 got in).
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=2, protect_for=3.0)
    pool.admit("player", "10.0.0.1", 0.0, 99.0, stage=2)
    pool.admit("guesser", "10.0.0.2", 0.0, 99.0, stage=2)
    # Both young and under way: newcomers are refused, and each refusal is a strike.
    for when in (0.1, 0.2, 0.3):
        assert not pool.admit(f"more-{when}", "10.0.0.3", when, 99.0, stage=1).admitted
    assert pool.strikes("10.0.0.3", 0.3) == 3
    # An address with strikes gets no protection and no displacing: the guesser, struck for
    # its wrong passwords, goes when a newcomer in good standing comes; 10.0.0.3 does not.
    for when in (0.4, 0.5, 0.6):
        pool.strike("10.0.0.2", when)
    assert not pool.admit("again", "10.0.0.3", 0.7, 99.0).admitted
    decided = pool.admit("newcomer", "10.0.0.4", 0.8, 99.0)
    assert decided.displaced == ("guesser",) and "player" in pool
    # Once old, the player is no longer protected: the next newcomer displaces someone.
    assert pool.admit("late", "10.0.0.5", 3.1, 99.0).admitted
    # Strikes are forgotten after the window.
    assert pool.strikes("10.0.0.3", 31.0) == 0


def test_silent_connections_are_never_protected() -> None:
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=1, protect_for=3.0,
                                             protect_from_stage=2)
    pool.admit("silent", "10.0.0.1", 0.0, 99.0, stage=1)
    assert pool.admit("login", "10.0.0.2", 0.1, 99.0, stage=1).displaced == ("silent",)


def test_a_person_turned_away_a_few_times_still_displaces_the_guessers() -> None:
    # Found with thirty guessers in a process of their own: a player whose password was
    # turned away unread three times (three strikes) was then refused at the full door on
    # every retry, each refusal one more strike: locked out for as long as they guessed.
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=2, protect_for=3.0)
    for number, guesser in enumerate(("10.0.0.2", "10.0.0.3")):
        pool.admit(f"guessing-{number}", guesser, 0.0, 99.0, stage=0)
        for when in range(10):
            pool.strike(guesser, when * 0.1)  # its wrong passwords
    for when in (1.0, 1.1, 1.2):
        pool.strike("10.0.0.1", when)  # the player's passwords, turned away unread
    decided = pool.admit("player", "10.0.0.1", 2.0, 99.0, stage=1)
    assert decided.admitted and decided.displaced == ("guessing-0",)


def test_a_refusal_for_bad_standing_is_no_strike_so_the_standing_wears_off() -> None:
    pool: AdmissionPool[str] = AdmissionPool(per_address=4, in_all=1, strike_window=30.0)
    pool.admit("guessing", "10.0.0.2", 0.0, 999.0, stage=0)
    for when in (0.0, 0.1, 0.2):
        pool.strike("10.0.0.2", when)
        pool.strike("10.0.0.1", when)
    # Each try refused while the door is full and 10.0.0.1 is in no better standing; its
    # retries, once a second, leave its standing as it was ...
    for when in range(1, 30):
        decided = pool.admit(f"try-{when}", "10.0.0.1", float(when), 999.0)
        assert not decided.admitted and "turned away lately" in decided.reason
        assert pool.strikes("10.0.0.1", float(when)) == 3
    # ... so it wears off 30 s after the last strike, and the next try gets in.
    assert pool.strikes("10.0.0.1", 30.3) == 0
    assert pool.admit("again", "10.0.0.1", 30.3, 999.0).displaced == ("guessing",)
