"""The screens' contract with the app: attributes down, messages up.

Screens read the app's session (`app.session`: its view, lobby, options, `is_host`...)
and ask for table actions with messages; only the app holds the connection and talks to
the table, and no screen or widget knows the app's own class.
"""

from __future__ import annotations

import ast
from pathlib import Path

from lobby_helpers import running_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import Select, Static

from netproto.wire.messages import Lobby, SeatInfo, SeatKind, TablePhase
from ono99tui.game import Scoring, preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

UI = Path(__file__).resolve().parents[2] / "ono99tui" / "ui"
HOST_KEY = "the-host-key-of-the-contract-tests"


def _reads_client(node: ast.AST) -> bool:
    """`<something>.client` or getattr(<something>, "client")."""
    if isinstance(node, ast.Attribute) and node.attr == "client":
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant) and node.args[1].value == "client")


def _names_the_app(node: ast.AST) -> bool:
    """An import of `ono99tui.ui.app` (even under TYPE_CHECKING), or getattr/hasattr on
    `self.app`."""
    if isinstance(node, ast.ImportFrom) and node.module == "ono99tui.ui.app":
        return True
    if isinstance(node, ast.Import) and any(a.name == "ono99tui.ui.app" for a in node.names):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr") and bool(node.args)
            and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "app")


def test_no_screen_or_widget_imports_the_app_or_guesses_at_its_attributes() -> None:
    offenders = []
    for path in sorted([*UI.glob("screens/*.py"), *UI.glob("widgets/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offenders += [f"{path.name}:{node.lineno}" for node in ast.walk(tree)
                      if _names_the_app(node)]
    assert offenders == []


def test_no_screen_or_widget_reaches_for_the_connection() -> None:
    offenders = []
    for path in sorted([*UI.glob("screens/*.py"), *UI.glob("widgets/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offenders += [f"{path.name}:{node.lineno}" for node in ast.walk(tree) if _reads_client(node)]
    assert offenders == []


def room_lobby(rules_wire: object) -> Lobby:
    return Lobby(phase=TablePhase.WAITING,
                 seats=(SeatInfo(0, "ana", SeatKind.HUMAN, False, True),),
                 host_seat=0, you=0, capacity=4,
                 options={"preset": "2022", "rules": rules_wire})


async def test_the_app_decodes_the_lobbys_rules_once_and_screens_take_them_typed() -> None:
    app = Ono99App(start_screen=WaitingRoomScreen(), ascii_glyphs=False)
    async with app.run_test(size=(80, 24)) as pilot:
        rules = preset("1980").replace(scoring="points-lowest", target=150)
        app.post_message(TableItem(room_lobby(rules_to_wire(rules))))
        await pilot.pause()
        decoded = app.session.options.rules
        assert decoded == rules and decoded.scoring is Scoring.POINTS_LOWEST
        assert app.session.options.rules is decoded  # once per lobby, not once per reader
        room = app.screen
        assert isinstance(room, WaitingRoomScreen)
        summary = str(room.query_one("#rules-summary", Static).render())
        assert summary == "preset 1980, points, lowest wins, target 150"
        assert room.query_one("#opt-scoring", Select).value == "points-lowest"


async def test_rules_the_app_cannot_read_leave_the_room_standing() -> None:
    # A table (of another version, or broken) sending rules this app refuses: the room says
    # it does not know them, and nothing crashes.
    app = Ono99App(start_screen=WaitingRoomScreen(), ascii_glyphs=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for bad in ({**rules_to_wire(preset()), "scoring": 5}, {"bust_at": "high"}, [1], None):
            app.post_message(TableItem(room_lobby(bad)))
            await pilot.pause()
            assert app.session.options.rules is None and app.is_running
            room = app.screen
            assert isinstance(room, WaitingRoomScreen)
            assert str(room.query_one("#rules-summary", Static).render()) == "rules not known yet"
        app.post_message(TableItem(room_lobby(rules_to_wire(preset("1980")))))
        await pilot.pause()
        assert "preset 1980, tokens, 3 tokens each" in str(
            app.screen.query_one("#rules-summary", Static).render())


async def test_the_waiting_rooms_requests_go_through_the_app() -> None:
    async with running_table(name="den", capacity=4, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None and app.session.is_host,
                             what="the host's seat")
            await pilot.press("b")  # AddBotRequested: the app sends it
            await wait_until(pilot, lambda: app.session.lobby is not None and len(app.session.lobby.seats) == 2
                             and app.session.lobby.seats[1].kind is SeatKind.BOT, what="the bot")
            await pilot.press("down", "x")  # RemoveBotRequested
            await wait_until(pilot, lambda: app.session.lobby is not None and len(app.session.lobby.seats) == 1,
                             what="the bot gone")
            await pilot.press("s")  # StartRequested with one player: the table says no
            await wait_until(pilot, lambda: any(note.title == "The table said no"
                                                for note in app._notifications),
                             what="the refusal, in words")
            assert app.session.lobby is not None and app.session.lobby.phase == TablePhase.WAITING


async def test_a_request_with_no_connection_is_reported_with_what_it_was() -> None:
    app = Ono99App(start_screen=WaitingRoomScreen(), ascii_glyphs=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(TableItem(room_lobby(rules_to_wire(preset()))))
        await pilot.pause()
        assert app.session.is_host and app.client is None
        await pilot.press("s")
        await wait_until(pilot, lambda: any(note.title == "Could not start"
                                            for note in app._notifications), what="the error")
        note = next(note for note in app._notifications if note.title == "Could not start")
        assert note.severity == "error" and "Not connected" in note.message
