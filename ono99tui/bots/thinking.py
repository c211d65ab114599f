"""A bot's choice made off the event loop, within a budget: for whoever runs bots on asyncio
(the table's adapter, `ono99 bot`).

A search bot may think for a second or more; run on the event loop, that second would
stop every other seat's views and the connection's pings. `choose_off_loop` runs `choose`
in an executor (a thread: the bot's own state stays in this process) and, if no move comes
within the budget or the bot fails, returns the fallback instead (the greedy choice). A
thread cannot be stopped: one that overruns finishes in the background and its move is
dropped, which is why a bot that thinks should keep to its own budget too.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
from collections.abc import Callable
from concurrent.futures import Executor

from ono99tui.bots.base import Bot
from ono99tui.game import Move, PlayerView

log = logging.getLogger(__name__)


class Outcome(enum.StrEnum):
    """How a choice off the loop ended."""

    CHOSEN = "chosen"  # the bot's own move, in time
    TIMED_OUT = "timed-out"  # the budget ran out: the fallback
    FAILED = "failed"  # the bot raised: the fallback


async def choose_off_loop(bot: Bot, view: PlayerView, rng: random.Random, *, budget: float,
                          fallback: Move, executor: Executor | None = None
                          ) -> tuple[Move, Outcome]:
    """`bot.choose(view, rng)` run in `executor` (None: the loop's default), or `fallback`
    if it takes longer than `budget` seconds or raises; with how it ended."""
    return await decide_off_loop(lambda: bot.choose(view, rng), lambda: fallback,
                                 name=bot.name, budget=budget, executor=executor)


async def decide_off_loop(choose: Callable[[], Move], fallback: Callable[[], Move], *,
                          name: str, budget: float, executor: Executor | None = None
                          ) -> tuple[Move, Outcome]:
    """`choose()` (a bot named `name` choosing) run in `executor` (None: the loop's
    default), or `fallback()` if it takes longer than `budget` seconds or raises; with how
    it ended. The fallback is worked out only when it is needed."""
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(executor, choose)
    try:
        # Not `asyncio.wait_for`: on Python 3.11 it returns the result and drops the
        # caller's cancellation when both land in one turn of the loop, and a cancelled
        # network bot then waits on its table forever. `asyncio.timeout` keeps it.
        async with asyncio.timeout(budget):
            move = await future
        return move, Outcome.CHOSEN
    except TimeoutError:
        move = fallback()
        log.warning("%s bot took longer than %g s; the fallback %r plays", name, budget, move)
        return move, Outcome.TIMED_OUT
    except Exception:  # a bot bug must not stop whoever runs it
        move = fallback()
        log.exception("%s bot failed to choose; the fallback %r plays", name, move)
        return move, Outcome.FAILED
