"""The adapter's bot thoughts (ono99tui/host/bot_thoughts.py), on a real event loop and the
real worker thread: a paced move is handed back when its pace timer fires and not before
(a finished thought does not wake the loop), a move wanted before it is chosen comes the
moment it is, past its budget the greedy choice comes instead, and each thought is handed
back exactly once.

A bot that the test holds (`HeldBot`) blocks its thread until released; nothing sleeps:
the test waits for conditions with generous limits.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Callable, Iterator

import pytest

import ono99tui.bots
from ono99tui.bots import Bot
from ono99tui.game import Move, PlayerView, preset, start_match, view
from ono99tui.host.bot_thoughts import BotThoughts
from ono99tui.host.outputs import BotMoveWanted, BotTurn

LIMIT = 20.0  # seconds, for a loaded machine


class HeldBot(Bot):
    """Chooses the last legal move once the test lets it (`release`); says when it has."""

    name = "held"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.chosen = threading.Event()

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Block until released; then the last legal move."""
        self.release.wait(120)
        self.chosen.set()
        return view.legal_moves[-1]


@pytest.fixture
def bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldBot]:
    held = HeldBot()
    monkeypatch.setitem(ono99tui.bots._FACTORIES, "held", lambda: held)
    monkeypatch.setattr(ono99tui.bots, "BOT_NAMES", (*ono99tui.bots.BOT_NAMES, "held"))
    yield held
    held.release.set()


def a_request(budget: float = 60.0) -> BotMoveWanted:
    state, events = start_match(preset("2022"), 2, random.Random(3))
    seat = state.turn
    assert len(view(state, seat).legal_moves) > 1  # the held bot's move is not the fallback's
    return BotMoveWanted(BotTurn(1, seat), "held", view(state, seat), tuple(events), 5, budget)


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(LIMIT):
        while not condition():
            await asyncio.sleep(0.001)


async def turns_of_the_loop(count: int = 20) -> None:
    """Let the loop run what is ready (a wake from the thread would be handled by now)."""
    for _ in range(count):
        await asyncio.sleep(0)


async def test_a_paced_move_is_handed_back_when_its_pace_timer_fires(bot: HeldBot) -> None:
    handed: list[tuple[BotTurn, Move]] = []
    thoughts = BotThoughts(lambda key, move: handed.append((key, move)))
    request = a_request()
    thoughts.think(request, paced=True)
    bot.release.set()
    assert await asyncio.to_thread(bot.chosen.wait, LIMIT)
    await until(lambda: thoughts._thoughts[request.key].future.done())
    await turns_of_the_loop()
    assert handed == []  # chosen, but not due: nothing woke the loop for it
    thoughts.wanted(request.key)
    assert handed == [(request.key, request.view.legal_moves[-1])]
    thoughts.wanted(request.key)  # a second firing finds nothing to hand back
    assert len(handed) == 1
    thoughts.close()


async def test_a_move_due_before_it_is_chosen_comes_the_moment_it_is(bot: HeldBot) -> None:
    handed: list[tuple[BotTurn, Move]] = []
    thoughts = BotThoughts(lambda key, move: handed.append((key, move)))
    request = a_request()
    thoughts.think(request, paced=True)
    thoughts.wanted(request.key)  # its pace timer fired; the bot still thinks
    await turns_of_the_loop()
    assert handed == []
    bot.release.set()
    await until(lambda: bool(handed))
    await turns_of_the_loop()
    assert handed == [(request.key, request.view.legal_moves[-1])]
    thoughts.close()


async def test_a_move_with_no_pace_comes_as_soon_as_it_is_chosen(bot: HeldBot) -> None:
    handed: list[tuple[BotTurn, Move]] = []
    thoughts = BotThoughts(lambda key, move: handed.append((key, move)))
    request = a_request()
    thoughts.think(request, paced=False)  # the stand-in of a timed-out turn
    bot.release.set()
    await until(lambda: bool(handed))
    assert handed == [(request.key, request.view.legal_moves[-1])]
    thoughts.close()


async def test_past_its_budget_the_greedy_choice_comes_once(
        bot: HeldBot, caplog: pytest.LogCaptureFixture) -> None:
    handed: list[tuple[BotTurn, Move]] = []
    thoughts = BotThoughts(lambda key, move: handed.append((key, move)))
    request = a_request(budget=0.2)
    with caplog.at_level(logging.WARNING, logger="ono99tui.host.bot_thoughts"):
        thoughts.think(request, paced=True)  # its pace timer never fires: the budget does
        await until(lambda: bool(handed))
    assert handed == [(request.key, request.fallback())]
    assert "held bot took longer than 0.2 s" in caplog.text
    assert request.key not in thoughts._thoughts  # handed back: forgotten
    bot.release.set()  # the late choice comes in the background and is dropped
    assert await asyncio.to_thread(bot.chosen.wait, LIMIT)
    thoughts.wanted(request.key)
    await turns_of_the_loop()
    assert len(handed) == 1
    thoughts.close()


async def test_a_closed_table_is_handed_nothing(bot: HeldBot) -> None:
    handed: list[tuple[BotTurn, Move]] = []
    thoughts = BotThoughts(lambda key, move: handed.append((key, move)))
    request = a_request()
    thoughts.think(request, paced=False)
    thoughts.close()
    bot.release.set()
    assert await asyncio.to_thread(bot.chosen.wait, LIMIT)
    await turns_of_the_loop()
    thoughts.think(a_request(), paced=False)  # after close: not even started
    await turns_of_the_loop()
    assert handed == []


class BrokenBot(Bot):
    """A bot with a bug."""

    name = "broken"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Fail."""
        raise RuntimeError("a bot bug")


async def test_a_bot_that_fails_is_replaced_by_the_greedy_choice(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(ono99tui.bots._FACTORIES, "broken", BrokenBot)
    monkeypatch.setattr(ono99tui.bots, "BOT_NAMES", (*ono99tui.bots.BOT_NAMES, "broken"))
    handed: list[tuple[BotTurn, Move]] = []
    thoughts = BotThoughts(lambda key, move: handed.append((key, move)))
    request = a_request()._replace(kind="broken")
    thoughts.think(request, paced=False)
    await until(lambda: bool(handed))
    assert handed == [(request.key, request.fallback())]
    assert "broken bot failed to choose" in caplog.text and "a bot bug" in caplog.text
    thoughts.close()
