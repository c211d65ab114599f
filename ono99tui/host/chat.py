"""Table talk, the table's side: the quick emotes it knows, and how fast one may talk.

The core (`ono99tui.host.core`) answers a `say` with a `chat` to everyone at the table,
after `netproto.wire.chat_text.clean_chat_text` made the text inert. Each talker (a seat, kept
across reconnects, or a spectator's connection) has a token bucket: `CHAT_BURST` lines at
once, then one every `1 / CHAT_PER_SECOND` seconds; past that the table answers
`slow-down` and sends nothing. The bucket runs on the core's `now`: no timer, and tests
drive it with a fake clock.
"""

from __future__ import annotations

from netproto.limits import TokenBucket
from ono99tui.table_protocol import EMOTES

__all__ = ["CHAT_BURST", "CHAT_PER_SECOND", "EMOTES", "TalkLimiter"]

CHAT_BURST = 5
CHAT_PER_SECOND = 0.5


class TalkLimiter:
    """One token bucket per talker, made on the first line it says."""

    def __init__(self, burst: int = CHAT_BURST, per_second: float = CHAT_PER_SECOND) -> None:
        self.burst = burst
        self.per_second = per_second
        self._buckets: dict[tuple[str, int], TokenBucket] = {}

    def allow(self, talker: tuple[str, int], now: float) -> bool:
        """Whether `talker` (("seat", seat id) or ("peer", peer id)) may say a line now;
        counts the line when it may."""
        bucket = self._buckets.get(talker)
        if bucket is None:
            bucket = self._buckets[talker] = TokenBucket(self.per_second, self.burst, now)
        return bucket.take(now)

    def forget(self, talker: tuple[str, int]) -> None:
        """The talker left for good (a freed seat, a spectator gone)."""
        self._buckets.pop(talker, None)

    def refusal(self) -> str:
        """What `slow-down` says."""
        return (f"slow down: at most {self.burst} messages at once, then one every "
                f"{1 / self.per_second:g} s")
