"""Computer players behind one interface: `make_bot(name).choose(view, rng) -> Move`, fed
the public events through `bot.observe(events)`.

Bots are named two ways: by level, the names people choose from (`easy`, `normal`, `hard`:
`LEVEL_NAMES`), and by kind, the names the bots were first known by (`random`, `greedy`),
still accepted everywhere. `normal` is the greedy bot. A level whose bot is not built in
this version is not in `BOT_NAMES`, so nothing can choose it.
"""

from __future__ import annotations

from collections.abc import Callable

from ono99tui.bots.base import Bot
from ono99tui.bots.easy import EasyBot
from ono99tui.bots.greedy import GreedyBot
from ono99tui.bots.hard import HardBot
from ono99tui.bots.random_bot import RandomBot

# Levels, weakest first, each with the bot kind that plays it.
LEVELS: dict[str, str] = {"easy": "easy", "normal": "greedy", "hard": "hard"}

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "easy": EasyBot, "random": RandomBot, "greedy": GreedyBot, "hard": HardBot}
LEVEL_NAMES: tuple[str, ...] = tuple(level for level, kind in LEVELS.items()
                                     if kind in _FACTORIES)
# Every name `make_bot` takes: the levels first (what a person picks from), then the kinds.
BOT_NAMES: tuple[str, ...] = LEVEL_NAMES + tuple(
    kind for kind in _FACTORIES if kind not in LEVEL_NAMES)

# What a person picks from (the waiting room): the levels, and the random bot for fun.
BOT_CHOICES: tuple[str, ...] = (*LEVEL_NAMES, "random")


class UnknownBot(ValueError):
    """No bot has this name; the message lists the valid ones."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown bot {name!r}; valid bots: {', '.join(BOT_NAMES)}")
        self.name = name


def bot_kind_of(name: str) -> str:
    """The bot kind a level or kind name stands for ("normal" → "greedy"); UnknownBot if
    `name` is neither (or its bot is not built in this version)."""
    if not isinstance(name, str) or name not in BOT_NAMES:
        raise UnknownBot(str(name))
    return LEVELS.get(name, name)


def level_of(name: str) -> str:
    """The name a person picks for the bot `name` stands for ("greedy" → "normal"); a
    kind with no level ("random") is its own. UnknownBot as `bot_kind_of`."""
    kind = bot_kind_of(name)
    return next((level for level, of in LEVELS.items() if of == kind), kind)


def make_bot(name: str) -> Bot:
    """A new bot of the named level or kind; UnknownBot lists the valid names."""
    return _FACTORIES[bot_kind_of(name)]()


def bot_kind(bot: Bot) -> str:
    """The name `make_bot` makes a bot like `bot` from (its class's kind)."""
    for name, factory in _FACTORIES.items():
        if type(bot) is factory:
            return name
    raise UnknownBot(type(bot).__name__)


__all__ = ["BOT_CHOICES", "BOT_NAMES", "LEVELS", "LEVEL_NAMES", "Bot", "EasyBot", "GreedyBot",
           "HardBot", "RandomBot", "UnknownBot", "bot_kind", "bot_kind_of", "level_of",
           "make_bot"]
