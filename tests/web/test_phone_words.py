"""The phone page's sentences agree with "you" when the viewer is the one named."""

from __future__ import annotations

from ono99tui.game import preset
from ono99tui.game.cards import Card
from ono99tui.game.events import MatchEnded, ObligationPassed, Played, RoundDealt
from ono99tui.web.phone.words import event_sentence, isolated

NAMES = ("Mia", "Raj", "Normal bot")
RULES = preset("2022")


def test_the_viewer_starting_a_round_is_you_start() -> None:
    assert event_sentence(RoundDealt(1, 2, 0, (4, 4, 4), 90), NAMES, RULES, viewer=0) == (
        "Round 1 is dealt; you start.")
    assert event_sentence(RoundDealt(1, 2, 0, (4, 4, 4), 90), NAMES, RULES, viewer=1) == (
        f"Round 1 is dealt; {isolated('Mia')} starts.")


def test_you_inside_a_sentence_is_lower_case() -> None:
    assert event_sentence(ObligationPassed(1, 0), NAMES, RULES, viewer=0) == (
        f"{isolated('Raj')} passed the Play 2 on: you must play two cards.")
    assert event_sentence(MatchEnded((0,)), NAMES, RULES, viewer=0) == (
        "The match is over: you won.")


def test_you_opening_a_sentence_is_capitalised() -> None:
    sentence = event_sentence(Played(0, Card.TEN, 10), NAMES, RULES, viewer=0)
    assert sentence is not None and sentence.startswith("You played ")


def test_your_own_moves_are_sentences_of_their_own_in_every_language() -> None:
    # Found on the phone in Bengali: "আপনি 10 খেলেছে" put "You" into the third person's
    # sentence ("{name} played …"); the verb must agree with "you" ("খেলেছেন").
    from ono99tui import i18n
    from ono99tui.game.events import Busted, TokenLost

    try:
        for language in ("bn", "be", "kn", "ur", "ps"):
            assert i18n.use_language(language)
            assert event_sentence(Played(0, Card.TEN, 10), NAMES, RULES, viewer=0) == (
                i18n._("You played {card}. The total is {total}.").format(card="10", total=10))
            if language in ("bn", "kn"):  # where the verb agrees with its subject
                for event in (Played(0, Card.TEN, 10), Busted(0, 98), TokenLost(0, 2)):
                    mine = event_sentence(event, NAMES, RULES, viewer=0)
                    theirs = event_sentence(event, NAMES, RULES, viewer=1)
                    assert mine is not None and theirs is not None
                    glued = theirs.replace(isolated("Mia"), i18n._("You"))
                    assert mine != glued, (language, mine)
        i18n.use_language("en")
        assert event_sentence(Played(0, Card.TEN, 10), NAMES, RULES, viewer=0) == (
            "You played 10. The total is 10.")
    finally:
        i18n.use_language(None)


def test_a_card_refused_on_the_phone_is_said_in_the_language_in_use() -> None:
    # Found on the phone in Bengali: "The ONO 99 card can never be played." came in the
    # engine's English, which words its refusals for logs and the wire.
    import random

    from ono99tui import i18n
    from ono99tui.game import start_match, view
    from ono99tui.web.phone.words import unplayable_reason
    from ono99tui.words.events import unplayable_reason as terminal_reason

    # The first deal that gives the seat to play an ONO 99 card, dead in 2022's rules.
    seen = next(on_turn for on_turn in (view(state, state.turn) for state, _ in (
        start_match(preset("2022"), 3, random.Random(seed)) for seed in range(100)))
        if Card.ONO99 in on_turn.hand)
    dead = Card.ONO99
    try:
        assert unplayable_reason(seen, dead) == "The ONO 99 card can never be played."
        for language, stop in (("bn", "\u0964"), ("ur", "\u06d4"), ("be", ".")):
            assert i18n.use_language(language)
            said = unplayable_reason(seen, dead)
            assert said == terminal_reason(seen, dead)[:1].upper() + terminal_reason(
                seen, dead)[1:] + stop, (language, said)
            assert "ONO 99 card" not in said
    finally:
        i18n.use_language(None)
