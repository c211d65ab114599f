"""`ono99 solo`: play against bots at once, on a table served in-process on loopback.

Nothing is advertised on the network: the table listens on 127.0.0.1 on a free port, the
app connects to it like any other player, and both stop when the app quits. Its matches go
to the journal of a table called "Solo" in the data dir, like a hosted table's, so that
`ono99 replay --last` and `ono99 stats` find them; a solo match is never taken up again
(one left unfinished is marked abandoned when the next solo game starts).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ono99tui.commands.game_options import (
    GameOptionError,
    add_level_option,
    add_rules_option,
    checked_bot_kind,
    checked_rules,
)
from ono99tui.commands.plain_option import add_plain_options
from ono99tui.commands.player_option import add_player_option
from ono99tui.i18n import N_, _

if TYPE_CHECKING:
    from netproto.client import TableClient
    from ono99tui.host.journal.table import FileJournal
    from ono99tui.host.server import TableServer
    from ono99tui.host.table_config import TableConfig
    from ono99tui.ui.app import Ono99App

# Translated where it is shown (cli.py).
HELP = N_("play a match against bots right away (no network needed)")
DEFAULT_BOTS = 3
DEFAULT_BOT_DELAY = 0.6


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`--bots`, `--level`, `--rules`, `--player`, `--ascii`, plus `--seed`/`--bot-delay`
    for replays."""
    parser.add_argument(
        "--bots", type=int, default=DEFAULT_BOTS, metavar="N",
        help=_("computer opponents, 1 to 7 (default {default_bots})").format(
            default_bots=DEFAULT_BOTS),
    )
    add_rules_option(parser)
    add_player_option(parser, "--name")  # --name: the older spelling
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    add_level_option(parser, _("level of the bots: {levels} (default {default})"))
    parser.add_argument(
        "--seed", type=int, default=None, help=_("deal from this seed (replays a match)")
    )
    parser.add_argument(
        "--bot-delay", type=float, default=DEFAULT_BOT_DELAY, metavar="S",
        help=_("seconds a bot waits before playing (default {default_bot_delay})").format(
            default_bot_delay=DEFAULT_BOT_DELAY),
    )
    parser.add_argument("--duplicate", action="store_true",
                        help=_("deal duplicate sets: each deal once per seat rotation, every "
                               "player compared with those who held the same cards "
                               "(docs/DUPLICATE.md); the host may switch it in the waiting room"))
    add_plain_options(parser)


def run(args: argparse.Namespace) -> int:
    """Start the table, open the app on the table screen, stop both on quit."""
    import asyncio

    from ono99tui.commands.player_option import PlayerNameError, checked_player_name
    from ono99tui.game import MAX_PLAYERS

    try:
        player = checked_player_name(args.player, "--player/--name")
    except PlayerNameError as error:
        print(_("ono99 solo: {error}").format(error=error), file=sys.stderr)
        return 2
    if not 1 <= args.bots <= MAX_PLAYERS - 1:
        print(_("ono99 solo: --bots must be 1 to {most}").format(
            most=MAX_PLAYERS - 1), file=sys.stderr)
        return 2
    try:
        checked_rules(args.rules)
        checked_bot_kind(args.bot)
    except GameOptionError as error:
        print(_("ono99 solo: {error}").format(error=error), file=sys.stderr)
        return 2
    if args.bot_delay < 0:
        print(_("ono99 solo: --bot-delay must not be negative"), file=sys.stderr)
        return 2
    return asyncio.run(_play(args, player))


def player_name(requested: str | None) -> str:
    """The name to sit down with: the one asked for (`--player`, already checked), the
    remembered one, or "you" in the language in use (a Bengali player's seat, log and
    results said "you" in English)."""
    from ono99tui.commands.player_option import remembered_player_name

    return requested or remembered_player_name() or _("you")


def solo_app(
    # Starts the solo table; its argument tells the player about the table's journal (a
    # full disk: the match will not be kept for `ono99 replay` and `ono99 stats`).
    start_server: Callable[[Callable[[str], None]], Awaitable[TableServer]],
    *,
    name: str,
    bots: int,
    bot: str = "normal",
    ascii_glyphs: bool | None = None,
    sixteen_colours: bool | None = None,
) -> Ono99App:
    """The app for a solo match: it opens on the table screen at once; once that is drawn
    it starts the table (`start_server`), connects, and seats the bots after the player
    (who thus sits first and hosts the rematch)."""
    from ono99tui.ui.app import Ono99App
    from ono99tui.ui.screens.table import TableScreen

    async def connect() -> TableClient:
        from netproto.client import TableClient

        server = await start_server(app.tell_host)
        client = await TableClient.connect("127.0.0.1", server.port, name=name)
        for _seat in range(bots):
            server.table.add_bot(bot)  # the table deals once every seat is taken
        return client

    app = Ono99App(
        connect, start_screen=TableScreen, ascii_glyphs=ascii_glyphs,
        sixteen_colours=sixteen_colours, hosting="solo",
    )
    return app


def solo_config(*, bots: int, rules: str, seed: int | None, bot_delay: float,
                duplicate: bool = False) -> TableConfig:
    """The table settings of a solo match: one human and `bots` bots, dealt when all sit;
    `duplicate`: in duplicate sets (each rematch the set's next rotation, docs/DUPLICATE.md).

    `rules` names a preset; GameOptionError if there is none of that name.
    """
    from ono99tui.host.table_config import TableConfig

    return TableConfig(
        name="Solo", rules=checked_rules(rules), capacity=bots + 1, start_when=bots + 1,
        seed=seed, bot_delay=bot_delay, hints=True,  # nobody to be unfair to
        duplicate=duplicate,
    )


async def _play(args: argparse.Namespace, player: str | None) -> int:
    """Play solo as `player` (checked; None: the remembered name)."""
    if player is not None:
        from ono99tui.commands.player_option import remember_player_name

        problem = remember_player_name(player)
        if problem is not None:  # shown once the app's screen is gone
            print(_("ono99 solo: your name was not remembered: {problem}").format(
                problem=problem), file=sys.stderr)
    config = solo_config(bots=args.bots, rules=args.rules, seed=args.seed,
                         bot_delay=args.bot_delay, duplicate=args.duplicate)
    servers: list[TableServer] = []
    journals: list[FileJournal] = []

    async def start_server(tell_player: Callable[[str], None]) -> TableServer:
        from ono99tui.host.server import start_table

        journal, notices = solo_journal()
        # As a host is told: a journal that cannot be written (a full disk) means the
        # match will not be there for `ono99 replay` or `ono99 stats`.
        for notice in notices:
            tell_player(notice)
        if journal is not None:
            journals.append(journal)
            journal.on_trouble = tell_player
        # 127.0.0.1, a free port, not advertised.
        servers.append(await start_table(config, journal=journal))
        return servers[-1]

    from ono99tui.commands.plain_option import line_settings, use_high_contrast, wants_plain

    use_high_contrast(args)

    try:
        if wants_plain(args):
            from ono99tui.line.start import solo_plain

            return await solo_plain(start_server, name=player_name(player), bots=args.bots,
                                    bot=args.bot, settings=line_settings(args))
        app = solo_app(
            start_server, name=player_name(player), bots=args.bots, bot=args.bot,
            ascii_glyphs=True if args.ascii else None,
        )
        await app.run_async()
    finally:
        for server in servers:
            await server.stop()
        for journal in journals:
            journal.close()
    return app.return_code or 0


SOLO_TABLE = "Solo"


def solo_journal() -> tuple[FileJournal | None, list[str]]:
    """The solo table's journal file, opened to append (never to take a match up), or
    None when it cannot be used: the game is then played with its journal in memory, as
    solo always was; and what the player must be told of it (why it cannot be kept)."""
    from ono99tui.host.journal.file import journal_path
    from ono99tui.host.journal.table import JournalChoice, JournalUnusable, open_table_journal
    from ono99tui.user_settings import data_dir

    try:
        journal, _resumed = open_table_journal(
            JournalChoice(journal_path(data_dir(), SOLO_TABLE), resume=False))
    except JournalUnusable as error:
        return None, [_("This match cannot be kept for ono99 replay and ono99 stats: "
                        "{reason}").format(reason=error)]
    return journal, list(journal.notices)
