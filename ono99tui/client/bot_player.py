"""A bot that plays over the network like any other client (`ono99 bot`, load tests).

It stands on the same client session as the terminal app (`ono99tui.client.session`):
every item the table sends goes through a `TableSession`, which decides what a view,
a refusal or a new seat means (which refusals only crossed the table's change of state on
the wire, forgetting view numbers when the table gives a new seat, taking in a (re)joined
view's history once); the bot only chooses moves and answers the rematch.

The bot chooses on a thread of its own (`choose_off_loop`), within `think_seconds`, so that
a search bot's thinking never stops the client answering the table's pings; past the
budget the greedy choice is sent. The public events the session takes in reach the bot's
`observe` in order, on that same thread (so never while a choice that overran its budget
still reads what the bot observed), as they do for the table's own bots.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from netproto.client import Closed, Disconnected, Reconnected, TableClient
from netproto.client_errors import NotConnected
from netproto.wire.connection import State
from netproto.wire.messages import Error, Lobby, TablePhase, View
from ono99tui.bots import Bot, GreedyBot
from ono99tui.bots.thinking import choose_off_loop
from ono99tui.client.outputs import EventsTaken, Output, Send
from ono99tui.client.session import TableSession, crossed_on_the_wire
from ono99tui.game import MATCH_OVER, Event

log = logging.getLogger(__name__)

# The most the bot thinks over one move before the greedy choice is sent instead.
DEFAULT_THINK_SECONDS = 2.0

_GREEDY = GreedyBot()


def _observe(bot: Bot, events: list[Event]) -> None:
    """`bot.observe(events)` on the thinking thread; a failure there is logged, not raised
    (nothing would read it: the search falls back to what the view shows)."""
    try:
        bot.observe(events)
    except Exception:  # a bot's own bug must not stop the player
        log.exception("the bot could not take in the table's events")


def observe_taken(bot: Bot, outputs: Sequence[Output], thread: ThreadPoolExecutor) -> None:
    """Queue the public events the session took in (its `EventsTaken`) for `bot` on its one
    thinking thread: in order, before its next choice, never beside a choice still running.
    A (re)joined view's history reaches it too, so a bot that resumed its seat from a new
    process, or after a host restart, knows the deal's discard pile again."""
    for output in outputs:
        if isinstance(output, EventsTaken):
            thread.submit(_observe, bot, list(output.events))


class BotPlayerError(Exception):
    """The table refused the bot or went away before the matches were played."""


@dataclass
class BotReport:
    """What a network bot saw: matches finished, moves sent, harmless refusals."""

    matches: int = 0
    moves: int = 0
    stale: int = 0
    reconnects: int = 0
    winners: list[list[int]] = field(default_factory=list)
    # The seat the bot played in its last match. Not the session's seat at the end: seat
    # numbers shift in the waiting room as others leave, so two bots that leave one after
    # the other would otherwise report the same number.
    seat: int | None = None


async def play_matches(client: TableClient, bot: Bot, matches: int,
                       rng: random.Random | None = None, *,
                       think_seconds: float = DEFAULT_THINK_SECONDS) -> BotReport:
    """Play `matches` matches at the client's table, then say bye. Each move is chosen off
    the event loop within `think_seconds` (the greedy choice past it).

    Raises BotPlayerError if the table refuses a move, closes the session, or seats the
    bot as a spectator.
    """
    rng = rng or random.Random()
    report = BotReport()
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ono99-bot")
    try:
        return await _play(client, bot, matches, rng, think_seconds, thread, report)
    finally:
        # Not waiting: a choice that overran its budget finishes in the background.
        thread.shutdown(wait=False, cancel_futures=True)


async def _play(client: TableClient, bot: Bot, matches: int, rng: random.Random,
                think_seconds: float, thread: ThreadPoolExecutor, report: BotReport) -> BotReport:
    if client.role != "player":
        await client.close()
        raise BotPlayerError("the table is full or playing: the bot was seated as a spectator")
    session = TableSession()
    connection, _ = session.connect()
    # The view (and seat) acted on: a view repeated after a resume is acted on again (the
    # move sent before the drop may never have arrived).
    acted_on: tuple[int, int] | None = None

    def take(item: object) -> None:
        observe_taken(bot, session.receive(item, 0.0, connection), thread)

    async def act() -> None:
        nonlocal acted_on
        view = session.view
        if view is None or client.state is not State.SEATED:
            return
        report.seat = view.seat
        if (session.views_taken, session.view_seq) == acted_on or not view.legal_moves:
            return
        acted_on = (session.views_taken, session.view_seq)
        fallback = _GREEDY.choose(view, rng)
        move, _ = await choose_off_loop(bot, view, rng, budget=think_seconds,
                                        fallback=fallback, executor=thread)
        for output in session.play(move):
            if isinstance(output, Send):
                try:
                    await client.send(output.message)
                except NotConnected:
                    session.not_sent(output.message)
                    return  # after the resume a fresh view comes and the bot plays then
                report.moves += 1

    # What the caller already read (the handshake's welcome, a lobby, a view) is taken in
    # first; while items are still queued they come through the loop below instead, in
    # order (the first view may carry the match so far).
    if not client.queued:
        for known in (client.welcome, client.lobby, client.view):
            if known is not None:
                take(known)
        await act()
    phase = session.lobby.phase if session.lobby is not None else None
    async for item in client:
        take(item)
        if isinstance(item, View):
            if phase is None and session.view is not None and session.view.phase != MATCH_OVER:
                # The caller read the lobby (and more) before the items still queued here:
                # a view of a match under way says the table is playing it, so its end
                # counts (the table may play on faster than the caller read).
                phase = TablePhase.PLAYING
            # Act only on the newest view: an older one would only earn a stale-seq error.
            if item is client.view:
                await act()
        elif isinstance(item, Lobby):
            if phase == TablePhase.PLAYING and item.phase == TablePhase.FINISHED:
                report.matches += 1
                report.winners.append(list(item.results.get("winners", [])))
                if report.matches >= matches:
                    await client.close("played enough matches")
                    return report
            # Ready whenever the table is between matches and the seat is not: for the
            # rematch, and in the waiting room, which the host may open after a match and
            # where each change of the rules asks everyone to say ready again (a bot that
            # stayed silent there would hold up a table that deals once all are ready).
            # Only answer the newest lobby: a rematch may already be under way.
            if (item.phase != TablePhase.PLAYING and item.you is not None
                    and item is client.lobby and client.state is State.LOBBY
                    and not item.seats[item.you].ready):
                for output in session.ready(True):
                    if isinstance(output, Send):
                        with contextlib.suppress(NotConnected):
                            await client.send(output.message)
            phase = item.phase
        elif isinstance(item, Error):
            if not crossed_on_the_wire(item.code, item.ref):
                await client.close("refused")
                raise BotPlayerError(f"the table refused: {item.code}: {item.reason}")
            report.stale += 1
        elif isinstance(item, Disconnected):
            report.reconnects += 1
        elif isinstance(item, Reconnected):
            acted_on = None
        elif isinstance(item, Closed):
            raise BotPlayerError(f"the session ended early: {item.code}: {item.reason}")
    raise BotPlayerError("the session ended early")
