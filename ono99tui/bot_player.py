"""A bot that plays over the network like any other client (`ono99 bot`, load tests).

The bot chooses on a thread of its own (`choose_off_loop`), within `think_seconds`, so that
a search bot's thinking never stops the client answering the table's pings; past the
budget the greedy choice is sent. Every view's public events reach the bot's `observe` in
order, on that same thread (so never while a choice that overran its budget still reads
what the bot observed), as they do for the table's own bots.
"""

from __future__ import annotations

import contextlib
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from netproto.client import Closed, Disconnected, NotConnected, TableClient
from netproto.connection import State
from netproto.messages import Error, Lobby, TablePhase, View, Welcome
from ono99tui.bots import Bot, GreedyBot
from ono99tui.bots.thinking import choose_off_loop
from ono99tui.game import Event
from ono99tui.game.codec import event_from_wire, move_to_wire, view_from_wire

log = logging.getLogger(__name__)

# The most the bot thinks over one move before the greedy choice is sent instead.
DEFAULT_THINK_SECONDS = 2.0

# Errors a well-behaved client can still get: a move in flight when the view changed
# (e.g. the late-draw race), or an action that crossed a phase change.
HARMLESS_ERROR_CODES = frozenset({"stale-seq", "unexpected-message"})


_GREEDY = GreedyBot()


def _observe(bot: Bot, events: list[Event]) -> None:
    """`bot.observe(events)` on the thinking thread; a failure there is logged, not raised
    (nothing would read it: the search falls back to what the view shows)."""
    try:
        bot.observe(events)
    except Exception:  # a bot's own bug must not stop the player
        log.exception("the bot could not take in the table's events")


def observe_later(bot: Bot, item: View, thread: ThreadPoolExecutor) -> None:
    """Queue the public events of `item` for `bot` on its one thinking thread: in order,
    before its next choice, never beside a choice still running."""
    try:
        # The first view after a (re)join carries the match so far (`history`): a bot that
        # resumed its seat from a new process, or after a host restart, knows the deal's
        # discard pile again. Told from the match's first deal on, the bot's account of the
        # deal is rebuilt whole (each deal starts it afresh), whatever it had seen before.
        wire = [*(item.history or ()), *item.events]
        events = [event_from_wire(event) for event in wire]
    except ValueError as error:
        # A view the bot cannot read is refused at `act`; its events are simply not known
        # (the search then treats the discard pile as unseen).
        log.warning("events not read: %s", error)
        return
    if events:
        thread.submit(_observe, bot, events)


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
    acted_on = -1

    async def act(latest: View) -> None:
        nonlocal acted_on
        if latest.seq <= acted_on:
            return
        acted_on = latest.seq
        player_view = view_from_wire(latest.view)
        report.seat = player_view.seat
        if not player_view.legal_moves:
            return
        fallback = _GREEDY.choose(player_view, rng)
        move, _ = await choose_off_loop(bot, player_view, rng, budget=think_seconds,
                                        fallback=fallback, executor=thread)
        try:
            await client.send_move(move_to_wire(move), seq=latest.seq)
        except NotConnected:
            return  # after the resume a fresh view comes and the bot plays then
        report.moves += 1

    # The caller may already have read the view that says it is our turn. If views are
    # still queued, they come through the loop below, in order, and the first of them may
    # carry the match so far (history): acting before they are observed chose without it.
    catch_up = False
    if client.view is not None and client.state is State.SEATED:
        if client.queued:
            catch_up = True  # act once the queue is drained (below)
        else:
            observe_later(bot, client.view, thread)
            await act(client.view)
    phase = client.lobby.phase if client.lobby is not None else None
    token = client.token
    async for item in client:
        if isinstance(item, Welcome):
            if item.token != token:
                # A new seat (the host restarted without our match, or our token expired):
                # the table numbers its views from 1 again, so forget the old numbers.
                token, acted_on = item.token, -1
        elif isinstance(item, View):
            observe_later(bot, item, thread)  # every view's events, the older ones too
            # Act only on the newest view: an older one would only earn a stale-seq error.
            if item is client.view and client.state is State.SEATED:
                await act(item)
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
                    and item is client.lobby and client.state is State.LOBBY):
                seat = item.seats[item.you]
                if not seat.ready:
                    with contextlib.suppress(NotConnected):
                        await client.ready()
            phase = item.phase
        elif isinstance(item, Error):
            if item.code not in HARMLESS_ERROR_CODES:
                await client.close("refused")
                raise BotPlayerError(f"the table refused: {item.code}: {item.reason}")
            report.stale += 1
        elif isinstance(item, Disconnected):
            report.reconnects += 1
        elif isinstance(item, Closed):
            raise BotPlayerError(f"the session ended early: {item.code}: {item.reason}")
        if catch_up and not client.queued:
            # What was queued at the start is observed: the newest view now (act does
            # nothing if the loop already acted on it).
            catch_up = False
            if client.view is not None and client.state is State.SEATED:
                await act(client.view)
    raise BotPlayerError("the session ended early")
