"""SVG snapshots as a 16-colour terminal (TERM=xterm) shows the app, and one in 256 colours:
every colour brought down to the terminal's own and drawn with xterm's palette
(`colour_terminals.ColourTerminal`), where Textual's own snapshots keep true colour.

Played (issue 22): number cards were dark blue on black in 16 colours, the focused drop-down
of the rules panel looked like the others, and an empty "Turn secs" was red. Between them
these show every card face (each kind, one that may not be played, the focused card) and
the focus on each kind of field. Update with `pytest --snapshot-update` and look at them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from colour_terminals import ColourTerminal
from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local
from test_lobby_snapshots import room_lobby, show_tables
from textual.pilot import Pilot

from ono99tui.game import Card, position, preset
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen


class Table16(ColourTerminal, RecordingApp):
    colour_system = "standard"


class App16(ColourTerminal, Ono99App):
    colour_system = "standard"


class App256(ColourTerminal, Ono99App):
    colour_system = "256"


# Hands that show every kind of card between them; the total decides which may be played.
HANDS = {
    "numbers_and_turns": ("2022", [Card.FIVE, Card.TEN, Card.MINUS_TEN, Card.REVERSE], 50),
    "specials_and_dead_cards": ("2022", [Card.PLAY2, Card.ONO99, Card.ZERO, Card.NINE], 95),
    "1980_hold": ("1980", [Card.HOLD, Card.ONO99, Card.THREE, Card.PLAY2], 40),
}


@pytest.mark.parametrize("hand", sorted(HANDS))
def test_card_faces_in_16_colours(snap_compare: Any, hand: str) -> None:
    rules, cards, total = HANDS[hand]
    others = [[Card.TWO, Card.FOUR, Card.SIX, Card.EIGHT],
              [Card.FIVE, Card.SEVEN, Card.NINE, Card.SIX]]
    state = position(preset(rules), [cards, *others], total=total)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_local(pilot.app, pilot, LocalMatch.at(state), lobby_for(3, bots=(1, 2)))
        await pilot.pause()

    assert snap_compare(Table16(sixteen_colours=True), terminal_size=(80, 24),
                        run_before=run_before)


def room(app_class: type[Ono99App], *, sixteen: bool) -> Ono99App:
    invite = "Others join with: ono99 join   (or ono99 join 192.168.1.20:9099)"
    return app_class(start_screen=WaitingRoomScreen(invite=invite), ascii_glyphs=False,
                     sixteen_colours=sixteen)


def focus_on(widget_id: str) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        pilot.app.post_message(TableItem(room_lobby(you=0)))
        await pilot.pause()
        pilot.app.screen.query_one(widget_id).focus()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("widget_id", ["#opt-scoring", "#opt-turn_seconds", "#opt-late_draw_penalty"])
def test_the_rules_panel_s_focus_in_16_colours(snap_compare: Any, widget_id: str) -> None:
    assert snap_compare(room(App16, sixteen=True), terminal_size=(80, 24),
                        run_before=focus_on(widget_id))


def test_the_rules_panel_s_focus_in_256_colours(snap_compare: Any) -> None:
    assert snap_compare(room(App256, sixteen=False), terminal_size=(80, 24),
                        run_before=focus_on("#opt-scoring"))


def test_the_lobby_in_16_colours(snap_compare: Any, tmp_path: Path) -> None:
    app = App16(start_screen=LobbyScreen(None, config_directory=tmp_path, name="dee"),
                ascii_glyphs=False, sixteen_colours=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await show_tables(pilot)
        pilot.app.screen.query_one("#address").focus()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
