"""Table talk, the table's side: the quick emotes it knows, and how fast one may talk (and
change one's marks in the waiting room: `MARK_BURST`, `MARK_PER_SECOND`).

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

__all__ = ["CHAT_BURST", "CHAT_PER_SECOND", "EMOTES", "MARK_BURST", "MARK_PER_SECOND",
           "TalkLimiter"]

CHAT_BURST = 5
CHAT_PER_SECOND = 0.5
# A seat's own marks in the waiting room (ready, rated): each change is a lobby sent to
# everyone at the table, up to 64 connections, so a seat flipping one as fast as it can
# write would have the table build and send lobbies for everyone (in a test, 20,000 flips
# got every other connection dropped as not reading). A person flips far slower than this.
MARK_BURST = 8
MARK_PER_SECOND = 2.0


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

    def forget_all(self) -> None:
        """Everyone starts again with a full burst (a new match's waiting room)."""
        self._buckets.clear()

    def refusal(self, what: str = "messages") -> str:
        """What `slow-down` says (`what`: the things counted)."""
        return (f"slow down: at most {self.burst} {what} at once, then one every "
                f"{1 / self.per_second:g} s")
