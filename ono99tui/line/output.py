"""Where line mode's sentences go: plain lines, wrapped short, and the prompt.

Every sentence is one logical line, wrapped at `width` columns (40 by default: a braille
display's cells) with its continuation lines indented by two spaces, so a reader (or a
script) knows where a sentence ends; never wider than 80. Text is made plain before it is
written: control characters (escape sequences among them) are dropped, whoever wrote them,
so no name or line of talk can move the cursor or recolour the terminal. Only `--color`
adds colour, as SGR sequences around whole lines.

The prompt is a line of its own ending in "> ", after which the program reads: printing
anything while it stands ends its line first, and the front end prints it again after.
"""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Literal, TextIO

from ono99tui.i18n import _

Style = Literal["plain", "turn", "alert", "error", "talk"]

# A braille display's line; the widest any line gets, whatever is asked.
DEFAULT_WIDTH = 40
MAX_WIDTH = 80
PROMPT_END = " > "

_SGR = {"turn": "\x1b[1m", "alert": "\x1b[1;31m", "error": "\x1b[31m", "talk": "\x1b[36m"}
_RESET = "\x1b[0m"


def plain(text: str) -> str:
    """`text` with every control or format character dropped (tabs and newlines become
    spaces): nothing in it can reach the terminal as a command."""
    kept = []
    for char in text:
        if char in "\t\n\r":
            kept.append(" ")
        elif unicodedata.category(char)[0] != "C":
            kept.append(char)
    return "".join(kept)


def cells(text: str) -> int:
    """How many terminal columns `text` takes (wide East Asian characters take two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def wrapped(text: str, width: int = DEFAULT_WIDTH) -> list[str]:
    """`text` (one sentence or a few) as lines of at most `width` columns, continuation
    lines indented by two spaces."""
    width = max(12, min(width, MAX_WIDTH))
    text = " ".join(plain(text).split())
    if not text:
        return [""]
    lines = textwrap.wrap(text, width=width, subsequent_indent="  ",
                          break_long_words=True, break_on_hyphens=False)
    # textwrap counts characters: a line of wide characters is cut again by columns.
    fitted: list[str] = []
    for line in lines:
        while cells(line) > width:
            cut = len(line)
            while cut > 1 and cells(line[:cut]) > width:
                cut -= 1
            fitted.append(line[:cut])
            line = "  " + line[cut:].lstrip()
        fitted.append(line)
    return fitted


class LineWriter:
    """Writes sentences and the prompt to `stream` (see the module docstring)."""

    def __init__(self, stream: TextIO, *, width: int = DEFAULT_WIDTH, color: bool = False,
                 bell: bool = False) -> None:
        self.stream = stream
        self.width = max(12, min(width, MAX_WIDTH))
        self.color = color
        self.bell = bell
        self.prompt_open = False  # a prompt stands on the last line, waiting for input
        self.said_since_prompt = False

    def say(self, text: str, style: Style = "plain") -> None:
        """Write one sentence (wrapped)."""
        self._end_prompt_line()
        for line in wrapped(text, self.width):
            if self.color and style != "plain":
                line = f"{_SGR[style]}{line}{_RESET}"
            self.stream.write(line + "\n")
        self.said_since_prompt = True
        self.stream.flush()

    def say_all(self, lines: list[str], style: Style = "plain") -> None:
        """Write each of `lines` as a sentence."""
        for line in lines:
            self.say(line, style)

    def ring(self) -> None:
        """The terminal's bell, when asked for (`--bell`): a plain BEL, no sequence."""
        if self.bell:
            self.stream.write("\a")
            self.stream.flush()

    def prompt(self, text: str) -> None:
        """Write the prompt: `text` and "> " on a line of its own, then wait for input."""
        self._end_prompt_line()
        line = plain(text)
        budget = self.width - len(PROMPT_END)
        if cells(line) > budget:
            line = wrapped(line, budget)[0].rstrip()
        self.stream.write(f"{line}{PROMPT_END}" if line else PROMPT_END.lstrip())
        self.stream.flush()
        self.prompt_open = True
        self.said_since_prompt = False

    def input_taken(self, *, echoed: bool = True) -> None:
        """The player pressed Enter: a terminal's echo ended the prompt's line (input from
        a pipe is not echoed: the next line written ends it instead)."""
        if echoed:
            self.prompt_open = False

    def goodbye(self) -> None:
        """The program ends: the last line is ended, so the shell's prompt starts afresh."""
        self._end_prompt_line()
        self.stream.write(_("Goodbye.") + "\n")
        self.stream.flush()

    def _end_prompt_line(self) -> None:
        if self.prompt_open:
            self.stream.write("\n")
            self.prompt_open = False
