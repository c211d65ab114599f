"""The replay screen (`ono99 replay`): a finished match step by step with every hand face
up, driven with the keys a player uses, on golden journals written by a real table and on
an eight-seat match played here; SVG snapshots at 80x24 (update with
`pytest --snapshot-update` on this file)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from table_helpers import NAMES, screen_text, wait_until
from textual.pilot import Pilot

from ono99tui.bots import make_bot
from ono99tui.game import MATCH_OVER, RoundDealt, apply, preset, start_match, view
from ono99tui.game.codec import move_to_wire, rules_to_wire
from ono99tui.host.journal.history import (
    FINISHED,
    RecordedMatch,
    ReplayStep,
    read_matches,
    replay_match,
)
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.replay import ReplayScreen

JOURNALS = Path(__file__).parent.parent / "host" / "journals" / "v1"


def golden(preset_name: str) -> tuple[RecordedMatch, list[ReplayStep]]:
    [match] = read_matches(JOURNALS / f"{preset_name}.journal")
    return match, replay_match(match)


def eight_seat_match() -> tuple[RecordedMatch, list[ReplayStep]]:
    """A 2022 match of eight greedy bots played here, recorded as a journal would."""
    rules, rng, seed = preset("2022"), random.Random(4), 2024
    bot = make_bot("greedy")
    state, _ = start_match(rules, 8, random.Random(seed))
    deck_rng = random.Random(seed)
    state, _ = start_match(rules, 8, deck_rng)
    moves = []
    while state.phase != MATCH_OVER:
        seat = state.turn
        move = bot.choose(view(state, seat), rng)
        moves.append(move_to_wire(move))
        state, _ = apply(state, move, deck_rng)
    match = RecordedMatch(path=Path("Hall-0123456789ab.journal"), index=1, number=1, seed=seed,
                          rules=rules, names=NAMES, kinds=("human",) * 4 + ("greedy",) * 4,
                          steps=tuple(moves), winners=tuple(state.winners), status=FINISHED)
    assert rules_to_wire(match.rules)["name"] == "2022"
    return match, replay_match(match)


def replay_app(match: RecordedMatch, steps: list[ReplayStep]) -> Ono99App:
    return Ono99App(start_screen=ReplayScreen(match, steps), ascii_glyphs=False,
                    sixteen_colours=False)


def title(app: Ono99App) -> str:
    return str(app.screen.query_one("#replay-title").render())


def hands(app: Ono99App) -> str:
    return str(app.screen.query_one("#hands").render())


async def shown(pilot: Pilot[Any], move: int) -> None:
    await wait_until(pilot, lambda: title(pilot.app).endswith(f"Move {move}/"
                                                               f"{len(pilot.app.screen.steps) - 1}"))


def hand_text(step: ReplayStep, seat: int) -> str:
    return "  ".join(card.label(step.state.rules) for card in step.state.hands[seat])


async def test_keys_step_through_the_match_with_every_hand_face_up() -> None:
    match, steps = golden("1980")
    last = len(steps) - 1
    app = replay_app(match, steps)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, 0)
        assert "Replay: 1980, match 1" in title(app) and "Round 1" in title(app)
        for seat, line in enumerate(hands(app).splitlines()):  # every hand, not just one's
            assert line[2:].startswith(match.names[seat])
            assert line.endswith(f"  {hand_text(steps[0], seat)}")
        log_at_deal = app.screen.query_one("#log").line_count
        for key, move in (("right", 1), ("right", 2), ("left", 1), ("space", 2)):
            await pilot.press(key)
            await shown(pilot, move)
            lines = hands(app).splitlines()
            for seat in range(len(match.names)):
                assert lines[seat].endswith(f"  {hand_text(steps[move], seat)}")
        assert app.screen.query_one("#log").line_count > log_at_deal
        # The log after steps forward one by one is the log rebuilt after a jump.
        await pilot.press("right", "right", "right")
        await shown(pilot, 5)
        one_by_one = list(app.screen.query_one("#log").lines)
        await pilot.press("home", "end", "home")
        await shown(pilot, 0)
        assert list(app.screen.query_one("#log").lines) != one_by_one
        await pilot.press("right", "down", "up", *["right"] * 6, "left")  # left: rebuilt
        await shown(pilot, 5)
        assert list(app.screen.query_one("#log").lines) == one_by_one
        await pilot.press("left", "left", "left")
        await shown(pilot, 2)
        # Down: the next round's deal; up: back to this round's deal, then the one before.
        deals = [index for index, step in enumerate(steps)
                 if any(type(event) is RoundDealt for event in step.events)]
        assert len(deals) > 2
        await pilot.press("down")
        await shown(pilot, deals[1])
        assert "Round 2" in title(app) and "The deal." not in screen_text(app)
        await pilot.press("down", "right")
        await shown(pilot, deals[2] + 1)
        await pilot.press("up")
        await shown(pilot, deals[2])
        await pilot.press("up")
        await shown(pilot, deals[1])
        await pilot.press("end")
        await shown(pilot, last)
        winner = match.names[match.winners[0]]
        assert f"Match over: {winner} wins." in screen_text(app)
        await pilot.press("right")  # past the end: nothing moves
        await shown(pilot, last)
        await pilot.press("home")
        await shown(pilot, 0)
        assert "The deal." in screen_text(app)
        # The rules the match was played by, not a table's.
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: "Rules: 1980 (" in screen_text(app))
        await pilot.press("escape")
        await shown(pilot, 0)
        await pilot.press("q")
    assert app.return_code == 0


async def test_the_footer_names_every_key_at_80x24() -> None:
    match, steps = eight_seat_match()
    app = replay_app(match, steps)
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, 0)
        await wait_until(pilot, lambda: "Quit" in screen_text(app).splitlines()[-1])
        footer = screen_text(app).splitlines()[-1]
        for words in ("→ Next", "← Back", "↓ Next round", "↑ Round back", "g Plot", "q Quit"):
            assert words in footer
        text = screen_text(app)
        assert "Home: the deal  End: the last move" in text
        assert all(name in hands(app) for name in NAMES)  # eight hands fit


@pytest.mark.parametrize("width", [55, 61, 70, 80])
async def test_the_plot_key_is_in_the_footer_at_narrow_widths_too(width: int) -> None:
    """`g` (the round's plot) was in no footer nor title: at 61 columns nothing named it.
    Every key shows down to 60 columns, and packed closer below that."""
    match, steps = golden("1980")
    app = replay_app(match, steps)
    async with app.run_test(size=(width, 24)) as pilot:
        await shown(pilot, 0)
        await wait_until(pilot, lambda: "Quit" in screen_text(app).splitlines()[-1])
        footer = screen_text(app).splitlines()[-1]
        assert "g Plot" in footer and footer.rstrip().endswith("q Quit")
        assert " → Next  " in footer if width >= 60 else footer.startswith("→ Next ← Back")
        await pilot.press("g")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "PlotsScreen")


@pytest.mark.parametrize("preset_name", ["1980-set99"])
def test_replay_snapshot_mid_round(snap_compare, preset_name: str) -> None:
    match, steps = golden(preset_name)

    async def run_before(pilot: Pilot[Any]) -> None:
        await shown(pilot, 0)
        await pilot.press("down", "right", "right", "right")
        await wait_until(pilot, lambda: "Round 2" in title(pilot.app))

    assert snap_compare(replay_app(match, steps), terminal_size=(80, 24),
                        run_before=run_before)


def test_replay_snapshot_eight_seats_at_the_end(snap_compare) -> None:
    match, steps = eight_seat_match()

    async def run_before(pilot: Pilot[Any]) -> None:
        await shown(pilot, 0)
        await pilot.press("end")
        await shown(pilot, len(steps) - 1)

    assert snap_compare(replay_app(match, steps), terminal_size=(80, 24),
                        run_before=run_before)


async def test_in_ascii_at_60x18_the_footer_names_the_arrows_in_ascii() -> None:
    match, steps = golden("2022")
    app = Ono99App(start_screen=ReplayScreen(match, steps), ascii_glyphs=True)
    async with app.run_test(size=(60, 18)) as pilot:
        await shown(pilot, 0)
        await wait_until(pilot, lambda: "Quit" in screen_text(app).splitlines()[-1])
        footer = screen_text(app).splitlines()[-1]
        assert footer.split() == [">", "Next", "<", "Back", "v", "Next", "round",
                                  "^", "Round", "back", "g", "Plot", "q", "Quit"]
        assert "→" not in screen_text(app) and "▶" not in screen_text(app)
