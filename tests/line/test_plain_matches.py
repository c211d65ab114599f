"""Whole matches in line mode through real ptys: each preset, at a real table with a bot and
two people, each playing by number from what their line mode prints.

Each transcript is then checked against the table's own account of the match (its journal,
replayed through the engine): every public event appears as exactly one sentence, in
order, worded as this test words it (not as the printer does: this file has its own
sentences); nothing else reads like an event; no escape sequence anywhere; no line wider
than 40 columns (a braille display's), let alone 80.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from plain_pty import HeadlessTable, PlainPlayer, line_env, logical_lines, ono99, play_until_over

from ono99tui.game import (
    Busted,
    Discarded,
    Eliminated,
    Event,
    MatchEnded,
    MissedDraw,
    ObligationCreated,
    ObligationPassed,
    OutOfRound,
    Played,
    Reshuffled,
    Resigned,
    Reversed,
    RoundDealt,
    RoundEnded,
    Rules,
    SwappedFour,
    TimedOut,
    TokenLost,
)
from ono99tui.host.journal.history import read_matches, replay_match

pytestmark = pytest.mark.slow

NAMES = ("ana", "bob")


def expected_sentence(event: Event, names: Sequence[str], rules: Rules,
                      me: int) -> str | None:
    """How a screen reader's user in seat `me` should hear `event` (None: not told, as in
    the log: a draw, and an obligation met, which the cards played already say). Their
    own seat's events are said to them: "You played 7. Total 57."."""
    def owes(seat: int) -> str:
        return "You owe" if seat == me else f"{names[seat]} owes"

    def who(seat: int) -> str:
        return "You" if seat == me else names[seat]

    double = "Double Play" if rules.deck == "1980" else "Play 2"
    match event:
        case RoundDealt(round_no=number, dealer=dealer, starter=starter):
            if starter == me:
                return f"Round {number}: {names[dealer]} dealt, you start."
            return f"Round {number}: {names[dealer]} dealt, {names[starter]} starts."
        case Played(seat=seat, card=card, total=total):
            return f"{who(seat)} played {card.label(rules)}. Total {total}."
        case SwappedFour(seat=seat):
            return f"{who(seat)} swapped four ONO 99 cards."
        case Reshuffled(draw_pile_size=size):
            return f"Discards reshuffled: {size} to draw."
        case MissedDraw(seat=seat):
            return f"{who(seat)} missed a draw."
        case Reversed(direction=direction):
            return ("Play now goes in seat order." if direction > 0
                    else "Play now goes against seat order.")
        case ObligationCreated(seat=seat):
            return f"{owes(seat)} 2 cards ({double})."
        case ObligationPassed(from_seat=giver, to_seat=taker):
            taker_owes = "you owe" if taker == me else owes(taker)
            return f"{names[giver]} passed the {double} on: {taker_owes} 2 cards."
        case Busted(seat=seat, total=total):
            return f"{who(seat)} busted at {total}."
        case Resigned(seat=seat):
            return f"{names[seat]} never came back and resigned."
        case TimedOut(seat=seat, in_a_row=count):
            return (f"{names[seat]} ran out of time ({count} in a row)." if count > 1
                    else f"{names[seat]} ran out of time.")
        case Eliminated(seat=seat, hand=hand):
            held = f" (held {', '.join(card.label(rules) for card in hand)})" if hand else ""
            return (f"You are out of the match{held}." if seat == me
                    else f"{names[seat]} is out of the match{held}.")
        case OutOfRound(seat=seat):
            return ("You sit out this round." if seat == me
                    else f"{names[seat]} sits out this round.")
        case Discarded(seat=seat, card=card):
            return f"{who(seat)} discarded {card.label(rules)}."
        case TokenLost(seat=seat, tokens_left=left):
            return f"{who(seat)} lost a token ({left} left)."
        case RoundEnded(round_no=number):
            return f"Round {number} is over."
        case MatchEnded(winners=winners):
            if list(winners) == [me]:
                return "Match over: you won."
            return f"Match over: {' and '.join(names[seat] for seat in winners)} won."
    return None


# What any event sentence looks like, whatever its names and numbers: a line of the
# transcript matching one of these is taken for an event's sentence.
EVENT_SHAPES = [re.compile(pattern) for pattern in (
    r"^Round \d+: .+ dealt, .+ starts?\.$",
    r"^.+ played .+\. Total -?\d+\.$",
    r"^.+ swapped four ONO 99 cards\.$",
    r"^Discards reshuffled: \d+ to draw\.$",
    r"^.+ missed a draw\.$",
    r"^Play now goes (in|against) seat order\.$",
    r"^.+ owes? 2 cards \((Play 2|Double Play)\)\.$",
    r"^.+ passed the .+ on: .+ owes? 2 cards\.$",
    r"^.+ busted at -?\d+\.$",
    r"^.+ never came back and resigned\.$",
    r"^.+ ran out of time( \(\d+ in a row\))?\.$",
    r"^.+ (is|are) out of the match( \(held .+\))?\.$",
    r"^.+ sits? out this round\.$",
    r"^.+ discarded .+\.$",
    r"^.+ lost a token \(\d+ left\)\.$",
    r"^Round \d+ is over\.$",
    r"^Match over: .+ won\.$",
)]


# The round's total in a sentence (words/plots.py), said after each round's standing.
ROUND_SUMMARY = re.compile(r"^In round (\d+) the total went from 0 to (-?\d+) in (\d+) plays?[;.]")


def told_events(transcript: str) -> list[str]:
    """The transcript's sentences that read like an event's (the round's summary, whose
    busts read like the bust's own sentence, is not one)."""
    lines = [line.strip() for line in logical_lines(transcript)]
    return [line for line in lines if any(shape.match(line) for shape in EVENT_SHAPES)
            and not ROUND_SUMMARY.match(line)]


def told_summaries(transcript: str) -> list[tuple[int, int, int]]:
    """Each round's summary said: (round, last total, plays)."""
    return [(int(m[1]), int(m[2]), int(m[3])) for line in logical_lines(transcript)
            if (m := ROUND_SUMMARY.match(line.strip()))]


def check_plain_text(transcript: str) -> None:
    """No escape sequence or other control character; no line over 40 columns."""
    assert "\x1b" not in transcript
    controls = {char for char in transcript if ord(char) < 32 and char not in "\r\n"}
    assert not controls, f"control characters in the transcript: {controls!r}"
    widest = max(transcript.replace("\r", "").split("\n"), key=len)
    assert len(widest) <= 40, f"a line of {len(widest)} columns: {widest!r}"


def play_a_match(tmp_path: Path, preset: str, seed: int) -> tuple[list[PlainPlayer], Path]:
    table = HeadlessTable(tmp_path, "--seats", "3", "--bots", "1", "--start-when", "3",
                          "--rules", preset, "--bot-delay", "0", "--seed", str(seed),
                          "--exit-after", "1", "--turn-time", "off", "--name", f"Line {preset}")
    port = table.wait_for_event("listening")["port"]
    players = [PlainPlayer(ono99("join", "--plain", f"127.0.0.1:{port}", "--player", name),
                           line_env(tmp_path, name)) for name in NAMES]
    try:
        play_until_over(players, timeout=600)
        for player in players:
            player.child.expect_exact(["Goodbye.", pytest.importorskip("pexpect").EOF],
                                      timeout=60)
    finally:
        for player in players:
            player.close()
        table.stop()
    return players, table.journal()


@pytest.mark.parametrize(("preset", "seed"), [("2022", 11), ("1980", 12), ("1980-set99", 13)])
def test_a_whole_match_of_each_preset_is_told_event_by_event(tmp_path: Path, preset: str,
                                                             seed: int) -> None:
    players, journal = play_a_match(tmp_path, preset, seed)
    matches = [match for match in read_matches(journal) if match.finished]
    assert len(matches) == 1
    match = matches[0]
    assert match.rules.name == preset
    steps = replay_match(match)
    for name, player in zip(NAMES, players, strict=True):
        me = list(match.names).index(name)
        expected = [sentence for step in steps for event in step.events
                    for sentence in [expected_sentence(event, match.names, match.rules, me)]
                    if sentence is not None]
        assert any(sentence.startswith("Match over:") for sentence in expected)
        assert any(sentence.startswith("You played") for sentence in expected)
        check_plain_text(player.transcript)
        assert told_events(player.transcript) == expected
        # Each round's total in a sentence: its last total and its number of plays.
        rounds = []
        for event in (event for step in steps for event in step.events):
            if isinstance(event, RoundDealt):
                rounds.append([event.round_no, 0, 0])
            elif isinstance(event, Played):
                rounds[-1][1:] = [event.total, rounds[-1][2] + 1]
        assert told_summaries(player.transcript) == [tuple(r) for r in rounds]
