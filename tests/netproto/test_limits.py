"""The pump's rate limiters as pure values, driven by a fake time."""

from __future__ import annotations

import logging

import pytest

from netproto.limits import FailureWindow, QuietLog, TokenBucket, address_key


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


def test_quiet_log_holds_back_a_flood_and_says_how_much(
        caplog: pytest.LogCaptureFixture) -> None:
    quiet = QuietLog(logging.getLogger("test.quiet"), burst=2, per_second=1.0)
    with caplog.at_level(logging.INFO, logger="test.quiet"):
        for number in range(50):
            quiet.log(0.0, logging.INFO, "displaced", "closing %d", number)
        quiet.log(0.0, logging.INFO, "truncated", "another kind")
        quiet.log(1.0, logging.INFO, "displaced", "closing %d", 50)
    assert [record.getMessage() for record in caplog.records] == [
        "closing 0", "closing 1", "another kind",
        "closing 50 (48 more like this were not logged)"]
