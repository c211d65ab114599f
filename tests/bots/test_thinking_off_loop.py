"""`choose_off_loop`: a cancelled caller is cancelled, whenever the cancel comes.

Seen in CI: a network bot's task, cancelled just as its thread's choice came back, went on
waiting for the table forever. Python 3.11's `asyncio.wait_for` returns the inner result
and drops the cancellation when both land in the same turn of the loop; the test cancels
at every turn from the first to well past the choice.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from ono99tui.bots import make_bot
from ono99tui.bots.thinking import Outcome, choose_off_loop
from ono99tui.game import preset, start_match, view


class RunNow(Executor):
    """Runs each call at once, in the caller's thread: the choice is back immediately."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def a_turn() -> tuple[Any, Any]:
    state, _ = start_match(preset("2022"), 2, random.Random(3))
    seat = state.turn
    return view(state, seat), make_bot("greedy")


@pytest.mark.parametrize("turns_before_cancel", range(6))
async def test_a_cancel_is_never_swallowed(turns_before_cancel: int) -> None:
    player_view, bot = a_turn()
    fallback = player_view.legal_moves[0]
    task = asyncio.create_task(choose_off_loop(bot, player_view, random.Random(1),
                                               budget=5.0, fallback=fallback,
                                               executor=RunNow()))
    for _ in range(turns_before_cancel):
        await asyncio.sleep(0)
    if task.done():  # the choice came back before the cancel: nothing to swallow
        assert task.result()[1] is Outcome.CHOSEN
        return
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_choice_comes_back_in_time() -> None:
    player_view, bot = a_turn()
    move, outcome = await choose_off_loop(bot, player_view, random.Random(1), budget=5.0,
                                          fallback=player_view.legal_moves[-1],
                                          executor=RunNow())
    assert outcome is Outcome.CHOSEN and move in player_view.legal_moves
