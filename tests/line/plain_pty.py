"""Line mode driven through a real pty (pexpect), as a screen reader's user would drive it.

`PlainPlayer` spawns an `ono99 … --plain` process on a pty and keeps everything it prints
(the transcript); `play_until_over` answers each prompt from what the transcript says: the
first card the numbered hand calls playable, the swap, the draw, or the first card to
discard. Nothing here reads the program's own code: only its text.
"""

from __future__ import annotations

import io
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pexpect
from testkit.headless import HeadlessHost

# A prompt: a line of its own ending in "> " (after which the program reads).
PROMPT = re.compile(r"(?m)^([^\n]*?) ?> $")
CARD_LINE = re.compile(r"^(\d)\. (.+): (.+), (playable|not playable|may be discarded)")


def line_env(tmp: Path, who: str) -> dict[str, str]:
    """The environment of one program: its own config and data dirs, loopback mDNS."""
    return {
        **os.environ,
        "ONO99_CONFIG_DIR": str(tmp / f"{who}-cfg"),
        "ONO99_DATA_DIR": str(tmp / f"{who}-data"),
        "ONO99_MDNS_INTERFACES": "127.0.0.1",
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "PYTHONUNBUFFERED": "1",
    }


def logical_lines(text: str) -> list[str]:
    """The transcript's sentences: pty line ends undone, continuation lines (indented by
    two spaces) joined to the line they continue."""
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if raw.startswith("  ") and lines:
            lines[-1] += " " + raw.strip()
        else:
            lines.append(raw)
    return lines


class PlainPlayer:
    """One `ono99 … --plain` process on a pty of `columns` x 24."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], *, columns: int = 80) -> None:
        self.log = io.StringIO()
        self.child = pexpect.spawn(argv[0], list(argv[1:]), env=env, encoding="utf-8",
                                   codec_errors="replace", dimensions=(24, columns),
                                   timeout=60)
        self.child.logfile_read = self.log

    @property
    def transcript(self) -> str:
        """Everything the program printed (and the pty echoed), as it came."""
        return self.log.getvalue()

    def sentences(self) -> list[str]:
        return logical_lines(self.transcript)

    def prompt(self, timeout: float = 60) -> str:
        """Wait for the next prompt; its text (without "> ")."""
        self.child.expect(PROMPT, timeout=timeout)
        return self.child.match.group(1)

    def expect(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        self.child.expect(pattern, timeout=timeout)
        match = self.child.match
        assert isinstance(match, re.Match)
        return match

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def hand(self) -> list[tuple[int, str, str]]:
        """The last hand told: (number, card, playable / not playable / may be discarded)."""
        lines = self.sentences()
        cards: list[tuple[int, str, str]] = []
        for line in reversed(lines):
            found = CARD_LINE.match(line)
            if found:
                cards.insert(0, (int(found.group(1)), found.group(2), found.group(4)))
                if found.group(1) == "1":
                    break
            elif cards:
                break
        return cards

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def play_until_over(players: Sequence[PlainPlayer], *, timeout: float = 240) -> None:
    """Answer every player's prompts by number until each has seen its match end: the
    first playable card, the swap when that is all, the draw, the first card to discard."""
    deadline = time.monotonic() + timeout
    over = [False] * len(players)
    while not all(over):
        if time.monotonic() > deadline:
            raise AssertionError("the match did not end in time:\n" + players[0].transcript[-3000:])
        for index, player in enumerate(players):
            if over[index]:
                continue
            try:
                text = player.prompt(timeout=0.3)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                over[index] = True
                continue
            if text.startswith("Match over"):
                over[index] = True
                continue
            answer(player, text)


def answer(player: PlainPlayer, prompt: str) -> None:
    """Answer one prompt from what the transcript says."""
    if prompt.startswith("Play"):
        cards = player.hand()
        playable = [number for number, _card, state in cards if state == "playable"]
        if playable:
            player.send(str(playable[0]))
        else:
            player.send("s")  # four ONO 99 and nothing else: the swap is the move
    elif prompt.startswith("Discard"):
        player.send("1")
    elif prompt.startswith("Draw"):
        player.send("d")


class HeadlessTable(HeadlessHost):
    """`ono99 host --headless` in a child process (loopback, a free port, not advertised),
    with the JSON events it prints on stdout."""

    def __init__(self, tmp: Path, *options: str) -> None:
        self.data = tmp / "host-data"
        super().__init__("--port", "0", "--no-advertise", *options, env=line_env(tmp, "host"))

    def journal(self) -> Path:
        found = sorted((self.data).rglob("*.journal"))
        assert found, "the host wrote no journal"
        return found[0]


def ono99(*arguments: str) -> list[str]:
    """The command line of `ono99 ARGUMENTS` with this interpreter."""
    return [sys.executable, "-m", "ono99tui", *arguments]


def play_turns(player: PlainPlayer, turns: int, timeout: float = 60) -> None:
    """Answer prompts until `turns` moves were made (other prompts are waited past)."""
    made = 0
    while made < turns:
        text = player.prompt(timeout=timeout)
        if text.startswith(("Play", "Discard", "Draw")):
            answer(player, text)
            made += 1
