"""`ono99 host` with its app, restarted mid-match: the new run takes the match up from the
table's journal and its app (which never had the old seat's token) is back in the host's
seat at the table, with the match where it stood, not in a waiting room or watching."""

from __future__ import annotations

import os
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from testkit.waiting import pilot_wait_until as wait_until

from ono99tui.cli import build_parser
from ono99tui.commands.host import host_options_from_args
from ono99tui.commands.host_with_app import serve_with_app
from ono99tui.game import view
from ono99tui.host.journal.file import journal_path, read_journal
from ono99tui.host.journal.resume import replay_point, resume_point
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.user_settings import CONFIG_DIR_ENV, data_dir

HOST = ["host", "--bind", "127.0.0.1", "--port", "0", "--no-advertise", "--player", "ana",
        "--bots", "3", "--bot-delay", "0.05", "--name", "Restarted"]


def options_with_key(key: str) -> Any:
    options = host_options_from_args(build_parser().parse_args(HOST), headless=False)
    return replace(options, table=replace(options.table, host_key=key))


async def test_the_hosts_app_is_back_in_its_seat_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    first_seq = 0

    async def first_run(app: Ono99App) -> None:
        nonlocal first_seq
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None and len(app.session.lobby.seats) == 4,
                             what="the waiting room with three bots")
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.session.view is not None, what="the match dealt")
            first_seq = app.session.view_seq
            # Stopped by a signal, not by its person: the match stays unfinished in the
            # journal, to be taken up (quitting the app would end it for good).
            os.kill(os.getpid(), signal.SIGTERM)
            await wait_until(pilot, lambda: app.return_code is not None, what="the app gone")

    assert await serve_with_app(options_with_key("first-key"), "ana", run_app=first_run) == 0
    point = resume_point(read_journal(journal_path(data_dir(), "Restarted")).records)
    assert point is not None  # an unfinished match to take up

    async def second_run(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.session.view is not None, what="the table, not a waiting room")
            assert app.session.welcome is not None
            assert (app.session.welcome.role, app.session.welcome.seat, app.session.welcome.host) == ("player", 3, True)
            # Views numbered on from the first run's, of the match taken up (its deal).
            assert app.session.view_seq > first_seq
            assert app.session.view is not None and app.session.view.seat == 3
            assert app.session.view.round_no == view(replay_point(point).state, 3).round_no
            # The person who started the host is told a match was taken up, and how not to.
            notices = [str(note.message) for note in app._notifications]
            assert any(f"Took up the unfinished match from this table's journal (2022 rules; "
                       f"{', '.join(point.names)})" in note and "ono99 host --fresh" in note
                       for note in notices), notices
            app.exit()

    assert await serve_with_app(options_with_key("second-key"), "ana", run_app=second_run) == 0
    # The second run wrote on in the same journal: the app's seat taken back is recorded.
    records = read_journal(journal_path(data_dir(), "Restarted")).records
    assert {"kind": "resumed", "seat": 3, "seq": first_seq + 1} in records


async def test_a_host_who_closes_the_table_mid_match_ends_the_match_for_good(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    # Issue 22: "Close the table? … ends the match for everyone" → y, and the next
    # `ono99 host` took that match up again. Closing on purpose ends it in the journal.
    from ono99tui.cli import main
    from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen

    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))

    async def close_mid_match(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None and len(app.session.lobby.seats) == 4,
                             what="the waiting room with three bots")
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.session.view is not None, what="the match dealt")
            await pilot.press("q")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuitScreen),
                             what="the close dialog")
            explanation = str(app.screen.query_one("#explanation").render())
            assert "for good" in explanation and "will not take it up" in explanation
            await pilot.press("y")
            await wait_until(pilot, lambda: app.return_code is not None, what="the app gone")

    assert await serve_with_app(options_with_key("k1"), "ana", run_app=close_mid_match) == 0
    path = journal_path(data_dir(), "Restarted")
    records = read_journal(path).records
    assert records[-1] == {"kind": "abandoned", "reason": "closed"}
    assert resume_point(records) is None

    async def next_evening(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None, what="a fresh waiting room")
            assert app.session.lobby is not None and app.session.lobby.phase == "waiting"
            notices = [str(note.message) for note in app._notifications]
            assert not any("Took up" in note for note in notices), notices
            app.exit()

    assert await serve_with_app(options_with_key("k2"), "ana", run_app=next_evening) == 0
    capsys.readouterr()
    assert main(["replay", "--list", str(path)]) == 0
    assert "abandoned: its host closed the table" in capsys.readouterr().out
    assert main(["stats", str(path)]) == 0
    assert "1 abandoned match not counted" in capsys.readouterr().out


async def test_a_host_whose_terminal_hangs_up_mid_match_tells_the_players_to_hold_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Found in tmux: the host's pane closed mid-match (SIGHUP: the app's hang-up, exit 129),
    # and every player was told "The host closed the table … the match is over" and gave up,
    # while the journal kept the match for the restart that took it up moments later.
    from netproto.client import ClientSettings, Closed, Disconnected, TableClient
    from netproto.wire.errors import GOING_AWAY
    from netproto.wire.messages import View
    from ono99tui.ui.drivers.hangup import TerminalHungUp

    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    watchers: list[TableClient] = []

    async def hang_up_mid_match(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None and len(app.session.lobby.seats) == 4,
                             what="the waiting room with three bots")
            await pilot.press("s")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                             and app.session.view is not None, what="the match dealt")
            assert app.client is not None
            watcher = await TableClient.connect(
                "127.0.0.1", app.client.port, name="cy", spectate=True,
                settings=ClientSettings(reconnect_for=5, backoff_max=0.2))
            watchers.append(watcher)
            await watcher.wait_for(View, timeout=20)
            app.post_message(TerminalHungUp("SIGHUP"))
            await wait_until(pilot, lambda: app.return_code is not None, what="the app gone")

    try:
        assert await serve_with_app(options_with_key("k1"), "ana",
                                    run_app=hang_up_mid_match) == 129
        [watcher] = watchers
        # What the table said as it stopped (serve_with_app returns once it has).
        while not isinstance(item := await watcher.recv(timeout=20), Disconnected | Closed):
            pass
    finally:
        for watcher in watchers:
            await watcher.close()
    assert isinstance(item, Disconnected) and item.will_retry and GOING_AWAY in item.reason, item
    records = read_journal(journal_path(data_dir(), "Restarted")).records
    assert resume_point(records) is not None  # the restart takes the match up
