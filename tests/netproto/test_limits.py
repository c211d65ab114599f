"""The pump's rate limiters as pure values, driven by a fake time."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest

from netproto.limits import (
    FailureWindow,
    GuessPolicy,
    GuessThrottle,
    QuietLog,
    TokenBucket,
    address_key,
)


def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.4) is False  # 0.8 of a token
    assert bucket.take(0.5) is True  # one whole token after half a second
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]  # capped
    assert bucket.take(99.0) is False  # a clock going backwards refills nothing


def test_failure_window_blocks_until_the_oldest_failure_leaves_it() -> None:
    window = FailureWindow(limit=3, window=60.0)
    for when in (0.0, 10.0):
        window.record("10.0.0.7", when)
    assert window.retry_after("10.0.0.7", 11.0) == 0.0
    window.record("10.0.0.7", 20.0)
    assert window.retry_after("10.0.0.7", 21.0) == pytest.approx(39.0)
    assert window.retry_after("10.0.0.8", 21.0) == 0.0  # other addresses are free
    assert window.retry_after("10.0.0.7", 60.0) == 0.0  # the first left the window
    window.record("10.0.0.7", 61.0)
    assert window.retry_after("10.0.0.7", 62.0) == pytest.approx(8.0)  # 10 s + 60 - 62
    assert window.retry_after("10.0.0.7", 200.0) == 0.0


def test_failure_window_forgets_idle_addresses() -> None:
    window = FailureWindow(limit=2, window=1.0)
    for number in range(FailureWindow._SWEEP_AT + 5):
        window.record(f"10.0.{number // 256}.{number % 256}", float(number))
    assert len(window._failures) < 10  # swept when it passed _SWEEP_AT


@pytest.mark.parametrize(("peername", "key"), [
    (("192.168.1.20", 50000), "192.168.1.20"),
    (("::ffff:192.168.1.20", 50000, 0, 0), "192.168.1.20"),
    (("fe80::1%eth0", 50000, 0, 2), "fe80::1"),
    (("2001:db8::0:1", 50000, 0, 0), "2001:db8::1"),
    (None, "?"),
    ("garbage", "?"),
])
def test_address_key(peername: object, key: str) -> None:
    assert address_key(peername) == key


def test_quiet_log_writes_one_line_per_kind_per_interval_with_a_count(
        caplog: pytest.LogCaptureFixture) -> None:
    # Before: ten lines at once and then one a second for each kind, so a flood of 35 s
    # still wrote dozens of lines (and the SSH door, with no limit, 67,790).
    quiet = QuietLog(logging.getLogger("test.quiet"), interval=60.0)
    with caplog.at_level(logging.INFO, logger="test.quiet"):
        for number in range(5000):  # a flood: 5000 lines over 50 s
            quiet.log(number / 100, logging.INFO, "displaced", "closing %d", number)
        quiet.log(10.0, logging.INFO, "truncated", "another kind")
        quiet.flush(59.9)  # not over yet
        assert quiet.held_back("displaced") == 4999
        quiet.flush(60.0)
        quiet.log(70.0, logging.INFO, "displaced", "closing %d", 5000)  # the next interval
        quiet.flush(119.0)
        quiet.flush(120.0)
        quiet.flush(180.0)  # an interval with nothing more: the kind is forgotten
        quiet.log(200.0, logging.INFO, "displaced", "closing %d", 5001)
    assert [record.getMessage() for record in caplog.records] == [
        "closing 0", "another kind",
        "closing 4999 (4999 more like this in the last 60 s)",
        "closing 5000 (1 more like this in the last 60 s)",
        "closing 5001"]


def test_quiet_log_closes_an_interval_at_the_next_line_without_a_flush(
        caplog: pytest.LogCaptureFixture) -> None:
    quiet = QuietLog(logging.getLogger("test.quiet"), interval=10.0)
    with caplog.at_level(logging.INFO, logger="test.quiet"):
        for when in (0.0, 1.0, 2.0, 15.0, 16.0, 40.0):
            quiet.log(when, logging.INFO, "k", "at %g", when)
    # A line after the interval ends it: its count is written, and that line is the first
    # of the next interval's count.
    assert [record.getMessage() for record in caplog.records] == [
        "at 0", "at 2 (2 more like this in the last 15 s)",
        "at 16 (2 more like this in the last 25 s)"]


# --- password guesses ---------------------------------------------------------------------

QUICK = GuessPolicy(free_per_address=2, first_pause=1.0, max_pause=8.0, free_in_all=4,
                    first_pause_in_all=0.5, max_pause_in_all=2.0, fresh_burst=3,
                    fresh_per_second=0.1, forget_after=100.0)


def guess(throttle: GuessThrottle, address: str, now: float, right: bool = False) -> float:
    """One guess: the wait `begin` asked for, or 0 after recording the outcome."""
    wait = throttle.begin(address, now)
    if wait == 0:
        throttle.finish(address, right, now)
    return wait


def test_one_address_backs_off_exponentially_up_to_the_cap() -> None:
    # Before: one address could try 250 SSH passwords a second.
    throttle = GuessThrottle(QUICK)
    now = 0.0
    assert guess(throttle, "10.0.0.1", now) == 0  # two wrong ones cost nothing
    assert guess(throttle, "10.0.0.1", now) == 0
    pauses = []
    for _ in range(6):
        wait = throttle.begin("10.0.0.1", now)
        assert wait > 0 and throttle.begin("10.0.0.1", now + wait - 0.01) > 0
        pauses.append(wait)
        now += wait
        assert guess(throttle, "10.0.0.1", now) == 0
    assert pauses == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    assert throttle.refused == 12


def test_a_right_password_never_waits_on_other_addresses_and_is_not_a_free_pass() -> None:
    throttle = GuessThrottle(QUICK)
    for _ in range(2):
        guess(throttle, "10.0.0.1", 0.0)
    assert throttle.begin("10.0.0.1", 0.5) == pytest.approx(0.5)
    assert guess(throttle, "10.0.0.2", 0.5, right=True) == 0  # another address: at once
    # A right password from the guesser (a guest who knows the table's password, guessing
    # at the admin one) does not wipe the wrong ones: the next wrong one waits 2 s.
    assert guess(throttle, "10.0.0.1", 1.0, right=True) == 0
    assert throttle.wrong_guesses("10.0.0.1", 1.0) == 2
    assert guess(throttle, "10.0.0.1", 1.0) == 0
    assert throttle.begin("10.0.0.1", 2.5) == pytest.approx(0.5)
    # Wrong guesses are forgotten with time.
    assert throttle.wrong_guesses("10.0.0.1", 101.0) == 0
    assert guess(throttle, "10.0.0.1", 101.0) == 0


def test_one_guess_at_a_time_per_address() -> None:
    throttle = GuessThrottle(QUICK)
    assert throttle.begin("10.0.0.1", 0.0) == 0
    assert throttle.begin("10.0.0.1", 0.0) > 0  # the first is still being checked
    throttle.finish("10.0.0.1", False, 0.1)
    assert throttle.begin("10.0.0.1", 0.1) == 0


def test_many_addresses_together_are_held_to_the_rate_in_all() -> None:
    # Before: 30 addresses gave 30 guesses a second at the web door.
    throttle = GuessThrottle(QUICK)
    addresses = [f"10.0.1.{n}" for n in range(30)]
    checked = 0
    now = 0.0
    while now < 600.0:
        for address in addresses:
            if guess(throttle, address, now) == 0:
                checked += 1
        now += 0.05
    # 600 s at most one waiting guess per 2 s, plus the fresh first guesses (3 at once,
    # then one per 10 s), plus the free guesses before the pause in all set in.
    assert checked <= 600 / 2.0 + 3 + 600 * 0.1 + QUICK.free_in_all + 1
    assert checked >= 600 / 2.0  # and the rate in all is reached, not starved
    assert QUICK.guesses_per_second(30) == pytest.approx(0.5 + 0.1)


def test_an_honest_first_try_skips_the_queue_of_guessers() -> None:
    throttle = GuessThrottle(QUICK)
    now = 0.0
    for _ in range(200):  # five guessers keep the pause in all at its cap
        for number in range(5):
            guess(throttle, f"10.0.2.{number}", now)
        now += 0.1
    assert throttle.begin("10.0.2.0", now) > 0
    # A player who has not guessed wrong is checked at once, every time they log in.
    for _ in range(10):
        assert guess(throttle, "10.0.3.1", now, right=True) == 0
    # One who has typed it wrong once waits in turn with the guessers.
    assert guess(throttle, "10.0.3.2", now) == 0
    assert throttle.begin("10.0.3.2", now) > 0


def test_first_guesses_from_ever_new_addresses_run_out() -> None:
    # An attacker with endless addresses (IPv6) gets the fresh ones' skip only so often.
    throttle = GuessThrottle(QUICK)
    for when in (0.0, 0.0, 1.0, 3.0):  # four wrong guesses: the pause in all is on
        assert guess(throttle, "10.0.4.1", when) == 0
    # At 3 s: two fresh skips are left of the burst of 3 (the first guess above took one),
    # then one guess goes in its turn, and the rest wait.
    skipped = sum(guess(throttle, f"2001:db8::{number:x}", 3.0) == 0 for number in range(50))
    assert skipped == 3
    # One fresh skip every 10 s, one turn every 2 s (the pause in all is at its cap).
    skipped = sum(guess(throttle, f"2001:db8::1:{number:x}", 13.0) == 0 for number in range(50))
    assert skipped == 2


def test_the_throttle_remembers_a_bounded_number_of_addresses() -> None:
    throttle = GuessThrottle(GuessPolicy(max_addresses=8, forget_after=100.0))
    for number in range(50):
        guess(throttle, f"10.0.5.{number}", float(number))
    assert len(throttle._records) <= 8
    # The newest are the ones kept: the last guesser still owes its wait.
    assert throttle.wrong_guesses("10.0.5.49", 50.0) == 1


def test_a_player_gets_the_next_turn_while_many_addresses_hammer() -> None:
    # Found by bench/admission.py --guessing: with the first tries' skips used up by thirty
    # guessing addresses, the turns in all went to whoever asked first, and guessers ask
    # thousands of times a second: no honest login got in for the whole minute.
    throttle = GuessThrottle(QUICK)
    now = 0.0
    for _ in range(400):  # 20 s of thirty addresses asking every 50 ms
        for number in range(30):
            guess(throttle, f"10.0.6.{number}", now)
        now += 0.05
    for player in ("10.0.7.1", "10.0.7.2"):
        waited = 0.0
        for _attempt in range(3):  # a person tries, reads "wait N s", tries again
            for number in range(30):  # the guessers ask first, at every instant
                guess(throttle, f"10.0.6.{number}", now + waited)
            wait = throttle.begin(player, now + waited)
            if wait == 0:
                throttle.finish(player, True, now + waited)
                break
            waited += wait
        else:
            raise AssertionError("the player never got a turn")
        assert waited <= QUICK.max_pause_in_all
        now += waited + 0.05


# Turns in all a second apart at most (short enough for a door to hold a login for its
# turn), and no first tries that skip them once the first three are used.
TURNS = replace(QUICK, max_pause_in_all=1.0, fresh_per_second=0.0)


@pytest.mark.parametrize("came", ["before", "after"])
def test_guessers_that_have_guessed_nothing_wrong_yet_do_not_go_first(came: str) -> None:
    # Found with thirty guessers in a process of their own: ten addresses whose first
    # guesses came after a player's went first in line, newest first, and the player, who
    # had guessed nothing wrong, was turned away for ten seconds; with the one waiting
    # longest first instead, those that came before the player did the same.
    throttle = GuessThrottle(TURNS)
    now = 0.0
    for _ in range(100):  # five guessers keep the pause in all on
        for number in range(5):
            guess(throttle, f"10.0.8.{number}", now)
        now += 0.1
    now += 0.05  # between two turns
    newcomers = [f"10.0.8.{number}" for number in range(100, 110)]
    # The turn now goes to a guesser: to one of the ten if they came before the player.
    takers = newcomers if came == "before" else ["10.0.8.99"]
    assert sorted(guess(throttle, address, now) > 0 for address in takers)[0] is False
    now += 0.01
    asked = now
    assert throttle.begin("10.0.9.1", now) > 0  # the player waits for the next turn
    for _ in range(20):  # the ten, who have guessed nothing wrong yet, hammer
        now += 0.1
        for _hammer in range(5):
            for address in newcomers:
                guess(throttle, address, now)
        if guess(throttle, "10.0.9.1", now, right=True) == 0:
            break
    else:
        raise AssertionError("the player never got a turn")
    assert now - asked <= TURNS.max_pause_in_all + 0.1  # the next turn


def test_an_address_first_in_line_is_held_for_its_turn_however_often_it_asked() -> None:
    throttle = GuessThrottle(TURNS)
    now = 0.0
    for _ in range(100):
        for number in range(5):
            guess(throttle, f"10.0.10.{number}", now)
        now += 0.1
    for _ in range(3):  # turned away three times (its logins, tried again)
        wait = throttle.begin("10.0.11.1", now)
        assert 0 < wait <= TURNS.max_pause_in_all
    # First in line, it is worth holding until its turn, not refused unread.
    assert throttle.short_wait("10.0.11.1", wait)
    # A guesser behind it, turned away as often, is answered at once.
    for _ in range(3):
        guesser_wait = throttle.begin("10.0.10.0", now)
    assert guesser_wait > 0 and not throttle.short_wait("10.0.10.0", guesser_wait)
    assert throttle.begin("10.0.11.1", now + wait) == 0
