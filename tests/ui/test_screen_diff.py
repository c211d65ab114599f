"""ScreenDiff: only the cells that change reach the terminal, and the terminal shows the same.

The equivalence test writes a stream of random frames (colours, box drawing, wide and
combining characters, overlapping writes) to a real terminal (tmux) twice, as they are and
through `ScreenDiff`, and compares the two screens, colours included.
"""

from __future__ import annotations

import random
import shutil
import uuid
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession
from testkit.waiting import wait_until

from ono99tui.ui.drivers.screen_diff import ScreenDiff

RESET = "\x1b[0m"
BLUE = "\x1b[38;5;32;48;5;233m"
BOLD = "\x1b[1;38;5;74;48;5;233m"


def frame(*parts: tuple[int, int, str, str], cursor: tuple[int, int] = (0, 0)) -> str:
    """A frame as Textual writes one: per part a cursor move, a style, text, a reset."""
    body = "".join(f"\x1b[{y + 1};{x + 1}H{style}{text}{RESET}" for y, x, style, text in parts)
    return body + f"\x1b[{cursor[0] + 1};{cursor[1] + 1}H"


def test_first_frame_is_written_whole_and_repeating_it_writes_nothing() -> None:
    screen = ScreenDiff(20, 4)
    first = frame((1, 2, BLUE, "hello"), (2, 0, "", "plain"))
    out = screen.filter(first)
    assert "hello" in out and "plain" in out
    assert screen.filter(first) == ""


def test_one_changed_cell_is_one_cursor_move_one_style_one_character() -> None:
    screen = ScreenDiff(20, 4)
    screen.filter(frame((1, 2, BLUE, "hello world")))
    out = screen.filter(frame((1, 2, BLUE, "hello wOrld")))
    assert out == f"\x1b[2;10H{BLUE}O{RESET}\x1b[1;1H"


def test_a_change_of_style_alone_is_rewritten() -> None:
    screen = ScreenDiff(20, 4)
    screen.filter(frame((0, 0, BLUE, "ab"), cursor=(3, 0)))
    out = screen.filter(frame((0, 0, BOLD, "ab"), cursor=(3, 0)))
    assert out == f"\x1b[1;1H{BOLD}ab{RESET}\x1b[4;1H"


def test_nearby_changes_share_one_cursor_move() -> None:
    screen = ScreenDiff(20, 4)
    screen.filter(frame((0, 0, "", "abcdefgh"), cursor=(3, 0)))
    out = screen.filter(frame((0, 0, "", "Xbcdefgh"), (0, 3, "", "Y"), cursor=(3, 0)))
    assert out == "\x1b[1;1HXbcY\x1b[4;1H"  # the run, then back to where the cursor goes


def test_changes_left_of_where_the_last_frame_left_the_cursor_are_written() -> None:
    screen = ScreenDiff(20, 4)
    screen.filter(frame((1, 0, "", "abcdef"), cursor=(1, 10)))
    out = screen.filter(frame((1, 0, "", "Abcdef"), cursor=(1, 10)))
    assert out == "\x1b[2;1HA\x1b[2;11H"


def test_only_the_colours_that_differ_are_sent() -> None:
    screen = ScreenDiff(20, 4)
    screen.filter(frame((3, 5, "", "z"), cursor=(3, 0)))
    out = screen.filter(frame((0, 0, BLUE, "a"), (0, 1, BOLD, "b"), (0, 2, BLUE, "c"), cursor=(3, 0)))
    # From BLUE to BOLD only bold and the foreground change; back, bold goes off again.
    assert out == f"\x1b[1;1H{BLUE}a\x1b[1;38;5;74mb\x1b[22;38;5;32mc{RESET}\x1b[4;1H"


def test_a_write_it_does_not_follow_goes_out_untouched_and_the_next_frame_in_full() -> None:
    screen = ScreenDiff(20, 4)
    shown = frame((0, 0, BLUE, "cards"))
    screen.filter(shown)
    clear = "\x1b[2J"
    assert screen.filter(clear) == clear
    assert "cards" in screen.filter(shown)


def test_mode_changes_pass_without_forgetting_the_screen() -> None:
    screen = ScreenDiff(20, 4)
    shown = frame((0, 0, BLUE, "cards"))
    screen.filter(shown)
    for mode in ("\x1b[?25l", "\x1b[?1000h\x1b[?1006h", "\x1b]22;default\x07", "\x1b[>1u"):
        assert screen.filter(mode) == mode
    assert screen.filter(shown) == ""


@pytest.mark.parametrize("sequence", ["\x1b[?1049h", "\x1b[?3h", "\x1b[u", "\x1b[?6h"])
def test_a_switch_of_screen_a_clearing_mode_or_a_cursor_restore_forgets(sequence: str) -> None:
    screen = ScreenDiff(20, 4)
    shown = frame((0, 0, BLUE, "cards"))
    screen.filter(shown)
    assert screen.filter(sequence) == sequence
    assert "cards" in screen.filter(shown)


def test_an_empty_write_changes_nothing() -> None:
    screen = ScreenDiff(20, 4)
    shown = frame((0, 0, BLUE, "cards"))
    screen.filter(shown)
    assert screen.filter("") == ""
    assert screen.filter(shown) == ""


def test_forget_with_a_new_size_writes_everything_again() -> None:
    screen = ScreenDiff(20, 4)
    shown = frame((0, 0, BLUE, "cards"))
    screen.filter(shown)
    screen.forget(30, 5)
    assert "cards" in screen.filter(shown)
    assert screen.filter(frame((4, 25, "", "edge"))) != ""


def test_text_past_the_edge_or_a_newline_off_the_bottom_goes_out_untouched() -> None:
    screen = ScreenDiff(10, 2)
    too_long = frame((0, 5, "", "123456"))
    assert screen.filter(too_long) == too_long
    scrolls = "\x1b[2;1Hx\n"
    assert screen.filter(scrolls) == scrolls


def test_overwriting_half_of_a_wide_character_rewrites_the_rest_when_it_comes_back() -> None:
    screen = ScreenDiff(10, 2)
    screen.filter(frame((0, 0, "", "中文")))
    screen.filter(frame((0, 1, "", "x")))  # the terminal blanks the other half of 中
    out = screen.filter(frame((0, 0, "", "中文")))
    assert "中" in out


def test_wide_characters_are_followed_by_an_explicit_cursor_move() -> None:
    screen = ScreenDiff(10, 2)
    screen.filter(frame((1, 0, "", "x"), cursor=(1, 5)))
    out = screen.filter(frame((0, 0, "", "中ab"), cursor=(1, 5)))
    assert out == "\x1b[1;1H中\x1b[1;3Hab\x1b[2;6H"


# --- the same picture, in a real terminal -----------------------------------------------

STYLES = ["", BLUE, BOLD, "\x1b[4;38;5;253;48;5;234m", "\x1b[38;2;200;10;10m", "\x1b[7m"]
TEXTS = ["card", "╭──╮", "│ 7 │", "▶ bot", "  ", "中文", "e\u0301", "↻", "x", "━━━"]


def random_frames(seed: int, count: int, width: int, height: int) -> list[str]:
    """Frames like Textual's: runs of styled text at cursor moves, sometimes a newline
    between them, ending with a cursor move; many overlap what came before."""
    rng = random.Random(seed)
    frames: list[str] = []
    drawn: list[str] = []
    for _ in range(count):
        # Textual repaints whole widgets: much of a frame is what was there already.
        parts = rng.sample(drawn, min(len(drawn), 8))
        for _ in range(rng.randint(1, 6)):
            text = "".join(rng.choice(TEXTS) for _ in range(rng.randint(1, 4)))
            y = rng.randrange(height)
            x = rng.randrange(max(1, width - len(text) * 2))
            part = f"\x1b[{y + 1};{x + 1}H{rng.choice(STYLES)}{text}{RESET}"
            if y < height - 1 and rng.random() < 0.3:
                part += "\n"
            parts.append(part)
            drawn.append(part)
        y, x = rng.randrange(height), rng.randrange(width)
        frames.append("".join(parts) + f"\x1b[{y + 1};{x + 1}H")
    return frames


def tmux_screen(stream: str, tmp_path: Path, width: int, height: int) -> str:
    """What a real terminal shows (with colours) after `stream`."""
    name = uuid.uuid4().hex[:10]
    path = tmp_path / f"{name}.out"
    # Autowrap off, as Textual sets it; the cursor hidden so it does not show in the capture.
    path.write_text("\x1b[?7l\x1b[?25l" + stream + "\x1b[?2026h", encoding="utf-8")
    done = tmp_path / f"{name}.done"
    terminal = TmuxSession(width=width, height=height,
                           env={"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"})
    try:
        # The marker file is written once `cat` has put the whole stream on the terminal.
        terminal.start(["sh", "-c", f"stty -onlcr; cat {path}; : > {done}; sleep 60"])
        wait_until(done.exists, 15.0, "the stream on the terminal")
        return terminal.capture(escapes=True)
    finally:
        terminal.kill()


@pytest.mark.tmux
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_terminal_shows_the_same_with_and_without_the_diff(seed: int, tmp_path: Path) -> None:
    width, height = 40, 12
    frames = random_frames(seed, 60, width, height)
    screen = ScreenDiff(width, height)
    filtered = [screen.filter(f) for f in frames]
    assert sum(map(len, filtered)) < sum(map(len, frames))
    for upto in (20, 60):
        raw = tmux_screen("".join(frames[:upto]), tmp_path, width, height)
        diffed = tmux_screen("".join(filtered[:upto]), tmp_path, width, height)
        assert diffed == raw
        assert "card" in raw
