"""What a person at an 80x24 terminal reads at the table (issue 22): every key the host
may press is in the Footer, Quit among them; the turn marker points at whoever must act;
a toast keeps off the log's frame; the 1980 results say their numbers are tokens left."""

from __future__ import annotations

import dataclasses

import pytest
from table_helpers import (
    NAMES,
    LocalMatch,
    RecordingApp,
    lobby_for,
    open_local,
    screen_text,
    wait_until,
)

from netproto.wire.messages import PROTOCOL_VERSION, Welcome
from ono99tui.game import MATCH_OVER, RoundEnded, legal_moves, preset
from ono99tui.game.state import DISCARDING
from ono99tui.ui.screens.results import MatchEndScreen


def host_at_a_talking_table(**options: object) -> RecordingApp:
    """The host's app at a table that talks (its welcome says so), with no connection."""
    app = RecordingApp(**options)
    app.session.welcome = Welcome(proto=PROTOCOL_VERSION, role="player", seat=0, host=True,
                          table={"name": "den", "capacity": 4, "preset": "2022", "chat": True})
    return app


def host_lobby(seats: int, **options: object):
    return dataclasses.replace(lobby_for(seats, bots=tuple(range(1, seats))),
                               options={"hints": True, **options})


async def test_the_host_s_footer_keeps_quit_with_every_key_shown() -> None:
    # At 80x24 the host's footer lost "Quit" ("... ? Rules  q ▏^p palette").
    rules = preset("2022").replace(late_draw_penalty=True)  # a Draw key as well as Swap
    match = LocalMatch(rules, 4, seed=21)
    match.run_until(lambda state: state.turn == 0)
    app = host_at_a_talking_table()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, host_lobby(4))
        app.session.connection_state = "connected"  # the clock and chat keys need the table
        app.screen.refresh_bindings()
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        for key in ("1-4 Play", "s Swap 4x99", "d Draw", "w Wins", "k Clock", "c Chat",
                    "h Hint", "? Rules", "q Quit"):
            assert key in footer, footer


async def test_the_1980_match_over_table_says_its_numbers_are_tokens_left() -> None:
    match = LocalMatch(preset("1980"), 3, seed=3)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(1, 2)))
        while match.state.phase != MATCH_OVER:  # one view per round end, as the table sends
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            if any(isinstance(event, RoundEnded) for event in match.pending):
                await match.show(app, pilot)
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        rounds = str(app.screen.query_one("#rounds Static").content).splitlines()
        assert rounds[0] == "Tokens left after each round"
        assert rounds[1].split() == ["Round", "ana", "bob", "cy"]
        assert "Tokens left after each round" in screen_text(app)


async def test_the_turn_marker_is_on_the_buster_who_chooses_a_discard() -> None:
    # Points scoring: a buster discards a card before the next player plays. The marker
    # pointed at the next player, who could do nothing.
    rules = preset("1980").replace(scoring="points-lowest", target=150)
    match = LocalMatch(rules, 3, seed=4, me=2)
    match.run_until(lambda state: state.phase == DISCARDING and state.discarding != 2)
    buster = match.state.discarding
    assert match.state.turn != buster
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3, you=2))
        marked = [line for line in screen_text(app).splitlines() if "▶" in line]
        assert len(marked) == 1 and NAMES[buster] in marked[0], marked


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 50)])
async def test_a_toast_stays_inside_the_log_s_frame(size: tuple[int, int]) -> None:
    # F2's "ASCII glyphs" toast covered the log's top border and its title.
    from textual.widgets._toast import Toast

    match = LocalMatch(preset("2022"), 3, seed=21)
    app = RecordingApp()
    async with app.run_test(size=size, notifications=True) as pilot:
        await open_local(app, pilot, match, lobby_for(3, bots=(1, 2)))
        await pilot.press("f2")
        await wait_until(pilot, lambda: app.screen.query(Toast))
        await pilot.pause()
        toast = app.screen.query_one(Toast).region
        inside = app.screen.query_one("#log-pane").content_region
        assert inside.contains_region(toast), (toast, inside)
        assert "Log (PgUp/PgDn)" in screen_text(app).splitlines()[1]
