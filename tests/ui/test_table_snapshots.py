"""SVG snapshots of the table screen (pytest-textual-snapshot). Every view comes from the
engine with a fixed seed, glyphs and colours are pinned, and nothing on screen depends on
the clock, so the pictures repeat exactly. Update with `pytest --snapshot-update`."""

from __future__ import annotations

from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until

from ono99tui.game import MATCH_OVER, Card, position, preset
from ono99tui.ui.screens.bust import BustScreen
from ono99tui.ui.screens.results import MatchEndScreen


def mid_match(seed: int = 21, plays: int = 7) -> LocalMatch:
    """A 4-seat 2022 match a few plays in, seen by seat 0 on its turn."""
    match = LocalMatch(preset("2022"), 4, seed=seed)
    for _ in range(plays):
        match.step()
    match.run_until(lambda state: state.turn == 0)
    return match


def feed(match: LocalMatch, **lobby: object):
    async def run_before(pilot) -> None:
        await open_local(pilot.app, pilot, match, lobby_for(match.state.seats, **lobby))
        await pilot.pause()

    return run_before


def test_table_roomy_terminal(snap_compare) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(120, 36),
                        run_before=feed(mid_match(), bots=(1, 2, 3), spectators=1))


def test_table_80x24(snap_compare) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(80, 24),
                        run_before=feed(mid_match(), bots=(1, 2), away=(3,)))


def test_table_80x24_ascii(snap_compare) -> None:
    assert snap_compare(RecordingApp(ascii_glyphs=True), terminal_size=(80, 24),
                        run_before=feed(mid_match(), bots=(1, 2, 3)))


def test_table_compact_60x18(snap_compare) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(60, 18),
                        run_before=feed(mid_match(), bots=(1, 2, 3)))


def test_table_you_owe_a_play_two_16_colours(snap_compare) -> None:
    state = position(preset("2022"), [[Card.ONO99, Card.SEVEN, Card.PLAY2, Card.MINUS_TEN],
                                      [Card.TWO] * 4, [Card.THREE] * 4], total=85, owed=2)
    assert snap_compare(RecordingApp(sixteen_colours=True), terminal_size=(80, 24),
                        run_before=feed(LocalMatch.at(state), bots=(1, 2)))


def test_table_you_owe_a_double_play_61x19(snap_compare) -> None:
    """The Double Play prompt in a shorter form that keeps its keys in sight."""
    state = position(preset("1980"), [[Card.ONO99, Card.SEVEN, Card.PLAY2, Card.MINUS_TEN],
                                      [Card.TWO] * 3 + [Card.FOUR],
                                      [Card.THREE] * 3 + [Card.FIVE]], total=85, owed=2)
    assert snap_compare(RecordingApp(), terminal_size=(61, 19),
                        run_before=feed(LocalMatch.at(state), bots=(1, 2)))


def test_match_end(snap_compare) -> None:
    match = LocalMatch(preset("2022"), 3, seed=8)
    match.run_until(lambda state: state.phase == MATCH_OVER)

    async def run_before(pilot) -> None:
        await feed(match, bots=(1, 2))(pilot)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, MatchEndScreen))
        pilot.app.clear_notifications()  # the elimination toasts have timers

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


def test_total_at_zero_with_its_label_80x24(snap_compare) -> None:
    """A new round: the total reads "Total" over a large 0 (not an empty box), the limit in
    words, and no card played yet."""
    match = LocalMatch(preset("2022"), 3, seed=5)  # seat 0 starts this deal
    assert match.state.turn == 0 and match.state.total == 0
    assert snap_compare(RecordingApp(), terminal_size=(80, 24),
                        run_before=feed(match, bots=(1, 2)))


def test_table_40x12(snap_compare) -> None:
    """The smallest planned size: one-line cards keep a word, the total its label."""
    assert snap_compare(RecordingApp(), terminal_size=(40, 12),
                        run_before=feed(mid_match(), bots=(1, 2, 3)))


def test_table_200x60(snap_compare) -> None:
    """A big terminal: the total grows, the seats and the log widen."""
    assert snap_compare(RecordingApp(), terminal_size=(200, 60),
                        run_before=feed(mid_match(), bots=(1, 2, 3)))


def bust_banner_shown(pilot_match: LocalMatch):
    """run_before: feed the match, play cy's 2 (ana busts), wait for the banner."""

    async def run_before(pilot) -> None:
        await feed(pilot_match, bots=(1, 2))(pilot)
        pilot_match.step()
        await pilot_match.show(pilot.app, pilot)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, BustScreen))
        pilot.app.clear_notifications()  # the elimination toast has a timer

    return run_before


def ana_busts_on_cys_play() -> LocalMatch:
    """cy plays 2 onto 90; ana holds {ONO 99, 7, 9, 10} at 92 and busts without pressing a
    key: the banner says so, with her hand, until she presses one."""
    state = position(preset("2022"), [[Card.ONO99, Card.SEVEN, Card.NINE, Card.TEN],
                                      [Card.THREE] * 4, [Card.TWO] * 4], total=90, turn=2)
    return LocalMatch.at(state)


def test_your_bust_banner_80x24(snap_compare) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(80, 24),
                        run_before=bust_banner_shown(ana_busts_on_cys_play()))


def test_your_bust_banner_40x12(snap_compare) -> None:
    assert snap_compare(RecordingApp(), terminal_size=(40, 12),
                        run_before=bust_banner_shown(ana_busts_on_cys_play()))
