"""Plays the app's table screen from its visible text, as a person at the keyboard would."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

MATCH_OVER = re.compile(r"Match\s+over|The\s+match\s+is\s+over")
ROUND_OVER = re.compile(r"Round\s+\d+\s+is\s+over")
YOUR_TURN = "Your turn"
# The prompt under the hand whenever this player must play (a turn, a Play 2, a Double Play;
# "You owe" where the width or the swap key calls for a shorter form of the prompt).
MUST_PLAY = re.compile(r"Your turn|\(1-4, arrows|You owe")
# How long to wait for the screen to answer a keypress before pressing again.
ANSWER_WAIT = 1.5


def candidate_keys(screen: str) -> list[str]:
    """Keys worth pressing on our turn: the cards not marked unplayable (⊘); with none,
    the swap of four ONO 99 (s) and the late draw (d), then any card."""
    cards = [key for key in "1234" if re.search(rf"[│┃█╏]{key}\b", screen)]
    playable = [key for key in cards if not re.search(rf"{key} ⊘", screen)]
    return playable or ["s", "d", *cards]


def play_until(
    screen: Callable[[], str],
    send_keys: Callable[..., None],
    done: Callable[[str], bool],
    timeout: float = 120.0,
) -> str:
    """Answer the screen until *done(screen)*: dismiss round results, play on our turn.

    One key at a time, like a person: after each press the screen is given time to answer
    (the move travels to the table and back) before the next. Returns the final screen.
    """
    deadline = time.monotonic() + timeout
    pressed_on: str | None = None
    pressed_at = 0.0
    tries = 0
    while True:
        text = screen()
        if done(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"not done within {timeout}s; screen:\n{text}")
        waiting = text == pressed_on and time.monotonic() - pressed_at < ANSWER_WAIT
        if not waiting:
            if text != pressed_on:
                tries = 0
            if ROUND_OVER.search(text) and not MATCH_OVER.search(text):
                key = "Enter"
            elif MUST_PLAY.search(text):
                keys = candidate_keys(text) or ["1"]
                key = keys[tries % len(keys)]
                tries += 1
            else:
                key = None
            if key is not None:
                send_keys(key)
                pressed_on, pressed_at = text, time.monotonic()
        time.sleep(0.1)
