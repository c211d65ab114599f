"""Computer players behind one interface: `make_bot(name).choose(view, rng) -> Move`, fed
the public events through `bot.observe(events)`."""

from __future__ import annotations

from collections.abc import Callable

from ono99tui.bots.base import Bot
from ono99tui.bots.greedy import GreedyBot
from ono99tui.bots.hard import HardBot
from ono99tui.bots.random_bot import RandomBot

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "hard": HardBot,
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


class UnknownBot(ValueError):
    """No bot has this name; the message lists the valid ones."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown bot {name!r}; valid bots: {', '.join(BOT_NAMES)}")
        self.name = name


def make_bot(name: str) -> Bot:
    """A new bot of the named kind (random, greedy, hard); UnknownBot lists the valid names."""
    try:
        factory = _FACTORIES[name]
    except (KeyError, TypeError):
        raise UnknownBot(str(name)) from None
    return factory()


def bot_kind(bot: Bot) -> str:
    """The name `make_bot` makes a bot like `bot` from (its class's kind)."""
    for name, factory in _FACTORIES.items():
        if type(bot) is factory:
            return name
    raise UnknownBot(type(bot).__name__)


__all__ = [
    "BOT_NAMES",
    "Bot",
    "GreedyBot",
    "HardBot",
    "RandomBot",
    "UnknownBot",
    "bot_kind",
    "make_bot",
]
