"""What the player reads: card faces, reasons, prompts, log lines, glyph choice (no terminal)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from table_helpers import lobby_for

from ono99tui.client.names import names_of
from ono99tui.game import (
    Busted,
    Card,
    Eliminated,
    MatchEnded,
    ObligationCreated,
    ObligationPassed,
    Play,
    Played,
    Resigned,
    TimedOut,
    TokenLost,
    apply,
    position,
    preset,
    spectator_view,
    view,
)
from ono99tui.ui.glyphs import ASCII, UNICODE, detect_ascii
from ono99tui.ui.present import (
    card_slots,
    clock_seconds_left,
    clock_warning,
    event_line,
    face_for,
    last_card_text,
    limit_text,
    obligation_line,
    prompt,
    prompt_forms,
    seat_infos,
    winners_text,
)

C = Card
SEATS = lobby_for(3).seats


@pytest.mark.parametrize(
    ("environ", "ascii_only"),
    [
        ({"LANG": "en_GB.UTF-8"}, False),
        ({"LANG": "C.utf8"}, False),
        ({"LANG": "C"}, True),
        ({"LANG": "POSIX"}, True),
        ({}, False),  # nothing said of the terminal: Unicode, as almost every one is UTF-8
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "C"}, True),  # LC_ALL wins
        ({"LANG": "C", "LC_CTYPE": "de_DE.UTF-8"}, False),  # LC_CTYPE before LANG
        ({"LANG": "en_US.ISO-8859-1"}, True),
    ],
)
def test_ascii_mode_follows_the_locale(environ: dict[str, str], ascii_only: bool) -> None:
    assert detect_ascii(environ) is ascii_only


@pytest.mark.parametrize(
    ("environ", "ascii_only"),
    [
        ({"LANG": "C"}, True),
        ({}, False),  # env -i, a container's shell: nothing said, Unicode
        ({"LANG": "C.UTF-8"}, False),
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, False),  # the user's own LC_CTYPE
        ({"LANG": "C", "PYTHONUTF8": "1"}, False),  # UTF-8 asked for: taken at its word
    ],
)
def test_ascii_mode_follows_the_locale_python_started_in(
        environ: dict[str, str], ascii_only: bool) -> None:
    # Before: Python, started in the C locale, sets LC_CTYPE=C.UTF-8 in its own environment
    # (PEP 538), and `LANG=C ono99 ...` (the SSH door's session of a client sending LANG=C
    # too) drew box drawing and card symbols; detect_ascii() read Python's LC_CTYPE.
    probe = "from ono99tui.ui.glyphs import detect_ascii; print(detect_ascii())"
    env = {"PATH": os.environ.get("PATH", ""), **environ}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    shown = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                           text=True, check=True, timeout=60).stdout.strip()
    assert shown == str(ascii_only)


def test_big_digits_are_three_even_rows_and_ascii_stays_ascii() -> None:
    for glyphs in (UNICODE, ASCII):
        rows = glyphs.big("-1234567890x")
        assert len({len(row) for row in rows}) == 1 and len(rows[0]) == 36
    assert all(row.isascii() for row in ASCII.big("-99"))


def test_every_card_kind_has_its_own_symbol_in_both_glyph_sets() -> None:
    for rules in (preset("2022"), preset("1980"), preset("1980-set99")):
        faces = {card: face_for(card, rules) for card in Card}
        kinds = {face.kind for face in faces.values()}
        assert kinds == {"number", "ten", "minus-ten", "reverse", "play-two", "hold", "ono99"}
        for glyphs in (UNICODE, ASCII):
            symbols = {face.kind: face.symbol(glyphs) for face in faces.values()}
            assert len(set(symbols.values())) == len(symbols)
    assert face_for(C.PLAY2, preset("1980")).title == "Double Play"
    assert face_for(C.PLAY2, preset("2022")).title == "Play 2"
    assert face_for(C.ONO99, preset("1980-set99")).effect == "sets 99"
    assert face_for(C.MINUS_TEN, preset("2022")).effect == "-10, min 0"


def test_rules_example_2_reasons_come_from_the_engine() -> None:
    state = position(preset("2022"), [[C.ONO99, C.ZERO, C.SEVEN, C.REVERSE], [C.FIVE] * 4], total=92)
    slots = card_slots(view(state, 0))
    assert [slot.playable for slot in slots] == [False, True, False, True]
    assert slots[0].reason == "the ONO 99 card can never be played"
    assert slots[2].reason == "7 would make the total 99"
    assert all(slot.blocked == (not slot.playable) for slot in slots)
    waiting = card_slots(view(state, 1))  # not seat 1's turn: drawn plainly, not blocked
    assert all(slot.waiting and not slot.blocked and not slot.playable for slot in waiting)
    assert waiting[0].reason == "it is not your turn"


def test_limits_in_words() -> None:
    hands = [[C.TWO] * 3 + [C.FIVE], [C.THREE] * 3 + [C.FOUR]]
    assert limit_text(view(position(preset("2022"), hands), 0)) == "you may go up to 98"
    assert limit_text(view(position(preset("1980"), hands), 0)) == "you may go up to 98, and below 0"
    assert limit_text(view(position(preset("1980-set99"), hands), 0)) == "you may go up to 99, and below 0"
    watching = spectator_view(position(preset("2022"), hands))
    assert limit_text(watching) == "players may go up to 98"


def test_the_last_card_played_in_words() -> None:
    hands = [[C.TWO] * 3 + [C.FIVE], [C.THREE] * 3 + [C.FOUR]]
    state = position(preset("1980"), hands)
    assert last_card_text(view(state, 0)) == "no card played yet"
    state, _ = apply(state, Play(0, C.TWO), random.Random(1))
    assert last_card_text(view(state, 1)) == "last card: 2"


def test_every_card_keeps_a_one_word_label_of_seven_columns_or_less() -> None:
    for name in ("2022", "1980", "1980-set99"):
        rules = preset(name)
        for card in Card:
            face = face_for(card, rules)
            assert face.word and len(face.word) <= 7, face


def test_the_obligation_line_and_prompt_for_owner_and_others() -> None:
    state = position(preset("1980"), [[C.TWO] * 3 + [C.HOLD], [C.THREE] * 3 + [C.FOUR], [C.FIVE] * 3 + [C.SIX]],
                     total=50, turn=1, owed=2)
    assert obligation_line(view(state, 1), SEATS) == ("Double Play! YOU owe 2 cards", True)
    assert obligation_line(view(state, 0), SEATS) == ("Double Play: bob owes 2 cards", False)
    text, act = prompt(view(state, 1), SEATS)
    assert act and text.startswith("Double Play! You owe 2 cards: play the first (1-4")
    assert prompt(view(state, 0), SEATS) == ("bob to play.", False)


def test_the_play_two_is_worded_alike_in_the_panel_prompt_seats_and_log() -> None:
    # Played at 61x19: the seat line said "owes 2" while the panel said "owes 1 more card".
    hands = [[C.TWO] * 3 + [C.SEVEN], [C.THREE] * 3 + [C.FOUR], [C.FIVE] * 3 + [C.SIX]]
    one_left = position(preset("2022"), hands, total=50, turn=1, owed=1, obligated=True)
    assert obligation_line(view(one_left, 0), SEATS) == ("Play 2: bob owes 1 more card", False)
    assert obligation_line(view(one_left, 1), SEATS) == ("Play 2! YOU owe 1 more card", True)
    text, act = prompt(view(one_left, 1), SEATS)
    assert act and text.startswith("Play 2! You owe 1 more card: play it (1-4")
    assert [seat.owes for seat in seat_infos(view(one_left, 0), SEATS)] == [0, 1, 0]
    assert seat_infos(view(one_left, 0), SEATS)[1].marks(UNICODE) == "owes 1"
    two_left = position(preset("2022"), hands, total=50, turn=1, owed=2)
    assert seat_infos(view(two_left, 0), SEATS)[1].marks(UNICODE) == "owes 2"
    names = names_of(view(two_left, 0), SEATS)
    line = lambda event: event_line(event, names, view(two_left, 0), UNICODE)  # noqa: E731
    assert line(ObligationCreated(1)) == "bob owes 2 cards (Play 2)"
    assert line(ObligationPassed(1, 2)) == "bob passed the Play 2 on: cy owes 2 cards"
    solo = event_line(ObligationCreated(0), ["you", "bob", "cy"], view(two_left, 0), UNICODE)
    assert solo == "you owe 2 cards (Play 2)"


def test_seat_infos_show_tokens_or_scores_by_scoring() -> None:
    hands = [[C.TWO] * 3 + [C.HOLD], [C.THREE] * 3 + [C.FOUR], [C.FIVE] * 3 + [C.SIX]]
    tokens = seat_infos(view(position(preset("1980"), hands, tokens=[3, 1, 0]), 0), SEATS)
    assert [(s.name, s.tokens, s.score, s.is_you) for s in tokens] == [
        ("ana", 3, None, True), ("bob", 1, None, False), ("cy", 0, None, False)]
    points = preset("1980").replace(scoring="points-lowest")
    scores = seat_infos(view(position(points, hands, scores=[12, 40, 7]), 2), SEATS)
    assert [(s.tokens, s.score, s.is_you) for s in scores] == [(None, 12, False), (None, 40, False), (None, 7, True)]


def test_the_turn_clock_shows_on_a_present_human_seat_and_warns_its_own_player() -> None:
    hands = [[C.TWO] * 4, [C.THREE] * 4, [C.FOUR] * 4]
    state = position(preset("2022"), hands)
    assert clock_seconds_left((1, 100.0), 87.2) == (1, 13)
    assert clock_seconds_left((1, 100.0), 130.0) == (1, 0)  # due: 0 until the table acts
    assert clock_seconds_left(None, 5.0) is None
    shown = seat_infos(view(state, 0), SEATS, (1, 13))
    assert [s.seconds_left for s in shown] == [None, 13, None]
    assert shown[1].marks(UNICODE) == "13s"
    # A seat a bot plays, or whose player is away, shows no clock (the table stops it).
    for lobby in (lobby_for(3, bots=(1,)), lobby_for(3, away=(1,))):
        assert [s.seconds_left for s in seat_infos(view(state, 0), lobby.seats, (1, 13))] == [
            None, None, None]
    assert clock_warning(view(state, 1), (1, 10)) and not clock_warning(view(state, 1), (1, 11))
    assert not clock_warning(view(state, 0), (1, 3))  # someone else's clock


def test_log_lines_name_everyone() -> None:
    state = position(preset("2022"), [[C.TWO] * 4, [C.THREE] * 4, [C.FOUR] * 4], total=50)
    seen_by = view(state, 0)
    names = names_of(seen_by, SEATS)
    assert names == ["ana", "bob", "cy"]
    line = lambda event, glyphs=UNICODE: event_line(event, names, seen_by, glyphs)  # noqa: E731
    assert line(Played(0, C.SEVEN, 57)) == "ana played 7 → 57"
    assert line(Played(0, C.SEVEN, 57), ASCII) == "ana played 7 -> 57"
    assert line(ObligationPassed(1, 2)) == "bob passed the Play 2 on: cy owes 2 cards"
    assert line(Busted(2, 95)) == "cy BUSTED at 95"
    assert line(Eliminated(2, (C.ONO99, C.SEVEN))) == "cy is out of the match (held ONO 99, 7)"
    assert line(TokenLost(1, 2)) == "bob lost a token (2 left)"
    assert line(Resigned(1)) == "bob never came back and resigned"
    assert line(TimedOut(1, 1)) == "bob ran out of time"
    assert line(TimedOut(2, 3)) == "cy ran out of time (3 in a row)"
    assert line(MatchEnded((0,))) == "Match over: ana won"


def test_winners_in_words() -> None:
    state = position(preset("2022"), [[C.TWO] * 4, [C.THREE] * 4, [C.FOUR] * 4])
    over = lambda winners, seat: winners_text(  # noqa: E731
        view(state._replace(winners=winners, phase="match_over"), seat), SEATS)
    assert over((1,), 0) == "bob wins"
    assert over((0,), 0) == "you win"
    assert over((0, 2), 1) == "ana and cy share the win"


def test_waiting_room_marks_a_resigned_seat_as_watching() -> None:
    from dataclasses import replace

    from netproto.wire.messages import SeatInfo as LobbySeatInfo
    from ono99tui.ui.screens.waiting_room import seat_rows

    lobby = lobby_for(3)
    seats = list(lobby.seats)
    seats[1] = LobbySeatInfo(1, seats[1].name, "resigned", False, True)
    rows = seat_rows(replace(lobby, seats=tuple(seats)), 0, "*")
    assert "out, watching" in rows[1][1].plain
    assert "watching" not in rows[0][1].plain


def test_a_player_named_you_reads_in_the_second_person() -> None:
    # `ono99 solo` names its player "you": every line about that seat must agree with it.
    from dataclasses import replace

    from ono99tui.game import DISCARDING, OutOfRound, RoundDealt

    solo = tuple(replace(seat, name="you") if seat.seat == 0 else seat for seat in SEATS)
    hands = [[C.TWO] * 3 + [C.FIVE], [C.THREE] * 3 + [C.SIX], [C.FOUR] * 3 + [C.SEVEN]]
    state = position(preset("1980"), hands, total=50)
    mine = view(state, 0)
    names = names_of(mine, solo)
    assert names == ["you", "bob", "cy"]
    line = lambda event: event_line(event, names, mine, UNICODE)  # noqa: E731
    assert line(RoundDealt(1, 2, 0, (4, 4, 4), 40)) == "Round 1: cy dealt, you start"
    assert line(RoundDealt(2, 0, 1, (4, 4, 4), 40)) == "Round 2: you dealt, bob starts"
    assert line(Eliminated(0, None)) == "you are out of the match"
    assert line(Eliminated(1, None)) == "bob is out of the match"
    assert line(OutOfRound(0)) == "you sit out this round"
    assert line(OutOfRound(2)) == "cy sits out this round"
    # Someone watching the solo player: the prompt and the Play 2 line agree with "you" too.
    watched = view(state._replace(discarding=0, phase=DISCARDING), 1)
    assert prompt(watched, solo) == ("you busted and are choosing a discard.", False)
    owing = position(preset("1980"), hands, total=50, owed=2)
    assert obligation_line(view(owing, 1), solo) == ("Double Play: you owe 2 cards", False)
    over = view(state._replace(winners=(0,), phase="match_over"), 2)
    assert winners_text(over, solo) == "you win"
    # The same seat under another name keeps the third person.
    assert prompt(view(state._replace(discarding=0, phase=DISCARDING), 1), SEATS) == (
        "ana busted and is choosing a discard.", False)


def test_a_long_name_gives_way_to_the_marks_after_it_in_the_waiting_room() -> None:
    # Played at 80x24: "Alexandra-the-host  (yo" — the name took the column and cut
    # "(you)"; and the host's own row said "not ready", though the host has no ready key.
    from dataclasses import replace

    from ono99tui.ui.screens.waiting_room import PLAYER_COLUMN_WIDTH, seat_rows

    lobby = lobby_for(3, bots=(2,))
    seats = (replace(lobby.seats[0], name="Alexandra-the-host-xx", ready=False),
             replace(lobby.seats[1], name="Bartholomew Fitzgerald", ready=False),
             replace(lobby.seats[2], name="Normal bot with a name"))
    lobby = replace(lobby, seats=seats)
    rows = seat_rows(lobby, 1, "*")
    labels = [row[1].plain for row in rows]
    assert all(len(label) <= PLAYER_COLUMN_WIDTH for label in labels), labels
    assert labels[1].endswith("\u2026  (you)") and labels[1].startswith("Bartholomew")
    assert labels[2].endswith("\u2026  (* bot)")
    assert labels[0] == "Alexandra-the-host-xx"  # a name that fits is not cut
    assert [row[2].plain for row in rows] == ["host", "not ready", "ready"]
    ascii_rows = seat_rows(lobby, 1, "*", ascii_glyphs=True)
    assert ascii_rows[1][1].plain.endswith("...  (you)")
    assert len(ascii_rows[1][1].plain) <= PLAYER_COLUMN_WIDTH


async def test_the_seat_named_you_is_not_marked_you_twice() -> None:
    from dataclasses import replace

    from table_helpers import LocalMatch, RecordingApp, open_local

    from ono99tui.ui.screens.waiting_room import seat_rows
    from ono99tui.ui.widgets.seats import SeatLine

    lobby = lobby_for(2)
    solo = replace(lobby, seats=(replace(lobby.seats[0], name="you"), lobby.seats[1]))
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 2, seed=3), solo)
        lines = [line.render().plain for line in app.screen.query(SeatLine)]
    assert "you" in lines[0] and "(you)" not in lines[0]
    assert "bob" in lines[1]
    rows = seat_rows(solo, 0, "*")
    assert rows[0][1].plain == "you" and rows[0][2].plain == "host"
    assert seat_rows(lobby, 0, "*")[0][1].plain == "ana  (you)"  # ana is still marked


async def test_the_elimination_toast_agrees_with_a_player_named_you() -> None:
    from dataclasses import replace

    from table_helpers import (
        LocalMatch,
        RecordingApp,
        open_local,
        record_notices,
        wait_until,
    )

    match = LocalMatch(preset("2022"), 3, seed=9)
    match.run_until(lambda state: not all(state.alive))
    out = match.state.alive.index(False)
    match.me = match.state.alive.index(True)  # someone still playing watches "you" go
    lobby = lobby_for(3)
    named = replace(lobby, seats=tuple(replace(s, name="you") if s.seat == out else s
                                       for s in lobby.seats))
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, named)
        await wait_until(pilot, lambda: any("out of the match" in n for n in notices))
    assert "you are out of the match." in notices


def test_phrase_lines_break_between_phrases_before_words() -> None:
    from ono99tui.ui.widgets.total import phrase_lines

    assert phrase_lines("you may go up to 98, and below 0", 32) == "you may go up to 98, and below 0"
    assert phrase_lines("you may go up to 98, and below 0", 30) == "you may go up to 98,\nand below 0"
    assert phrase_lines("you may go up to 98, and below 0", 20) == "you may go up to 98,\nand below 0"
    # A phrase too long for a line wraps by words, and the next may share its last line.
    assert phrase_lines("players may go up to 99, and below 0", 20) == (
        "players may go up to\n99, and below 0")
    assert phrase_lines("Play 2! YOU owe 2 cards", 20) == "Play 2!\nYOU owe 2 cards"
    assert phrase_lines("Double Play: bob owes 1 more card", 20) == (
        "Double Play:\nbob owes 1 more card")


def test_the_prompt_forms_shorten_to_fit_and_the_last_is_cut_with_an_ellipsis() -> None:
    from ono99tui.ui.widgets.prompt import fitting_form

    hands = [[C.TWO] * 3 + [C.HOLD], [C.THREE] * 3 + [C.FOUR], [C.FIVE] * 3 + [C.SIX]]
    owing = position(preset("1980"), hands, total=50, owed=2)
    forms, act = prompt_forms(view(owing, 0), SEATS)
    assert act and forms[0] == prompt(view(owing, 0), SEATS)[0]
    assert fitting_form(forms, 80) == "Double Play! You owe 2 cards: play the first (1-4, arrows+Enter)."
    assert fitting_form(forms, 61) == "Double Play! You owe 2 cards: play the first (1-4 or Enter)."
    assert fitting_form(forms, 40) == "Double Play! You owe 2 cards: play 1-4."
    assert fitting_form(forms, 30) == "You owe 2 cards: play 1-4."
    assert fitting_form(forms, 20) == "You owe 2 cards: pl…"
    assert fitting_form(forms, 20, ascii_glyphs=True) == "You owe 2 cards:..."
    assert fitting_form(forms, 0) == forms[0]  # not laid out yet


def test_four_ono_99_and_nothing_else_asks_for_the_swap() -> None:
    # "Your turn: play a card (1-4 …, s: swap)" sent the player to keys that only rang.
    hands = [[Card.ONO99] * 4, [Card.TWO, Card.THREE, Card.FOUR, Card.FIVE]]
    stuck = view(position(preset("2022"), hands, total=50), 0)
    assert all(type(move) is not Play for move in stuck.legal_moves)
    text, act = prompt(stuck, lobby_for(2).seats)
    assert act and text == "Your turn: four ONO 99 and nothing else: press s to swap them."
    # Three of them and a card to play: the usual prompt.
    hands[0] = [Card.ONO99] * 3 + [Card.TWO]
    text, _ = prompt(view(position(preset("2022"), hands, total=50), 0), lobby_for(2).seats)
    assert text.startswith("Your turn: play a card")
