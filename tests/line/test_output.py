"""Line mode's writer: plain text only (whoever wrote it), lines of 40 columns with their
continuations marked, never over 80, the prompt on a line of its own ending in "> ", and
colour only when asked for."""

from __future__ import annotations

import io

from ono99tui.line.output import LineWriter, cells, plain, wrapped


def test_control_characters_never_reach_the_terminal() -> None:
    assert plain("ana\x1b[2J\x1b]0;owned\x07 played\t7\r\n") == "ana[2J]0;owned played 7  "
    assert plain("bob\u202e\u200b") == "bob"  # bidi and zero-width format characters too


def test_sentences_are_wrapped_at_40_columns_with_marked_continuations() -> None:
    lines = wrapped("Normal bot is out of the match (held ONO 99, ONO 99, ONO 99, 10).")
    assert lines == ["Normal bot is out of the match (held ONO", "  99, ONO 99, ONO 99, 10)."]
    assert all(len(line) <= 40 for line in lines)
    assert wrapped("x" * 100)[0] == "x" * 40  # a word too long is cut, not left wide


def test_wide_characters_are_measured_as_the_terminal_does() -> None:
    lines = wrapped("\u4e2d" * 30)  # 60 columns of CJK
    assert all(cells(line) <= 40 for line in lines)
    assert [cells(line) for line in lines] == [40, 22]


def test_the_prompt_stands_on_a_line_of_its_own() -> None:
    stream = io.StringIO()
    writer = LineWriter(stream)
    writer.prompt("Play 1-4")
    writer.say("bob played 7. Total 84.")  # arrives while the prompt waits
    writer.prompt("Play 1-4")
    writer.input_taken()  # the terminal echoed the Enter
    writer.say("ana played 2. Total 86.")
    assert stream.getvalue() == ("Play 1-4 > \nbob played 7. Total 84.\nPlay 1-4 > "
                                 "ana played 2. Total 86.\n")


def test_colour_only_when_asked() -> None:
    stream = io.StringIO()
    LineWriter(stream).say("Your turn.", "turn")
    assert "\x1b" not in stream.getvalue()
    coloured = io.StringIO()
    LineWriter(coloured, color=True).say("Your turn.", "turn")
    assert coloured.getvalue() == "\x1b[1mYour turn.\x1b[0m\n"
