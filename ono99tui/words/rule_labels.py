"""The human wording of every rule option and preset: one table the screens share.

The waiting room (its drop-downs, check boxes and one-line summary), the help page (`?`)
and the presenter (the effect printed on an ONO 99 card) all name the rules in these words;
a rule option or mode added to the engine gets its wording here, once.

The words are English, marked with `N_` for the catalog; the functions below (and the
screens reading a table directly) translate them where they are shown, with `_`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ono99tui.game.cards import Card
from ono99tui.game.rules import Ono99Card, Rules, Scoring
from ono99tui.i18n import N_, _


@dataclass(frozen=True)
class ModeWords:
    """How one mode of a multiple-choice option (scoring, the ONO 99 card) is worded."""

    label: str  # in a drop-down or a one-line summary
    rule: str  # the full rule, for the help page; may name {tokens} and {target}
    effect: str = ""  # the few words printed on a card (ONO 99 modes only)


@dataclass(frozen=True)
class SwitchWords:
    """How one yes/no rule option is worded."""

    option: str  # the `Rules` field
    label: str  # on the waiting room's check box
    setting: str  # in the help page's list of this table's options
    on: str = N_("on")
    off: str = N_("off")


SCORING_WORDS: dict[Scoring, ModeWords] = {
    Scoring.SINGLE: ModeWords(
        N_("single round"), N_("One round: who busts is out; the last player left wins.")),
    Scoring.TOKENS: ModeWords(
        N_("tokens"),
        N_("Everyone starts with {tokens} tokens. Who busts loses one and a new round is dealt, "
        "started by them; busting with no tokens left puts you out. Last player left wins.")),
    Scoring.POINTS_ELIMINATION: ModeWords(
        N_("points, elimination"),
        N_("Who busts sits out the rest of the round after discarding one card. At the end of "
        "each round everyone scores their hand; reaching {target} puts you out. Last player "
        "left wins.")),
    Scoring.POINTS_LOWEST: ModeWords(
        N_("points, lowest wins"),
        N_("Who busts sits out the rest of the round after discarding one card. At the end of "
        "each round everyone scores their hand; when anyone reaches {target} the match ends "
        "and the lowest score wins.")),
}
# What the points modes add to their rule on the help page.
HAND_SCORES = (N_("Hand scores: number cards their value, ONO 99 20, other cards 15, 15 per "
               "missing card, +25 for busting."))

ONO99_WORDS: dict[Ono99Card, ModeWords] = {
    Ono99Card.DEAD: ModeWords(
        N_("dead, never played"),
        N_("ONO 99: can never be played; it only takes up room in your hand."),
        N_("dead card")),
    Ono99Card.TENS: ModeWords(
        N_("on 0, 10, 20..."),
        N_("ONO 99: may be played, worth 0, when the total ends in 0 (one per turn)."),
        N_("0 on tens")),
    Ono99Card.SET99: ModeWords(
        N_("sets total to 99"), N_("ONO 99: sets the total to exactly 99."), N_("sets 99")),
}

# The yes/no options the host may switch in the waiting room, in the order shown there.
RULE_SWITCHES: tuple[SwitchWords, ...] = (
    SwitchWords("four_ono99_swap", N_("Swap four ONO 99"), N_("Four-ONO-99 swap")),
    SwitchWords("negative_totals", N_("Negative totals"), N_("Totals below 0"),
                on=N_("allowed"), off=N_("no, the total stops at 0")),
    SwitchWords("late_draw_penalty", N_("Late-draw penalty"), N_("Late-draw penalty")),
)
# Yes/no options the help page lists but the waiting room does not offer.
REVEAL_ELIMINATED = SwitchWords("reveal_eliminated", N_("Show eliminated hands"),
                                N_("Hands of eliminated players"), on=N_("shown"),
                                off=N_("kept hidden"))
SWITCH_WORDS: dict[str, SwitchWords] = {
    words.option: words for words in (*RULE_SWITCHES, REVEAL_ELIMINATED)
}

# Each deck as the help page names it (a preset is named by its own name and its deck).
DECK_WORDS: dict[str, str] = {"2022": N_("112-card 2022 deck"), "1980": N_("54-card 1980 deck")}


def scoring_label(scoring: str) -> str:
    """A scoring mode in a few words ("points, lowest wins"); an unknown mode as it is."""
    try:
        return _(SCORING_WORDS[Scoring(scoring)].label)
    except ValueError:
        return str(scoring)


def scoring_rule(rules: Rules) -> str:
    """How `rules` score and win a match, in full (the help page's "Winning")."""
    text = _(SCORING_WORDS[rules.scoring].rule).format(tokens=rules.tokens, target=rules.target)
    return f"{text} {_(HAND_SCORES)}" if rules.scoring.counts_points else text


def ono99_effect(mode: str) -> str:
    """What the ONO 99 card does under `mode`, in the few words printed on the card."""
    try:
        return _(ONO99_WORDS[Ono99Card(mode)].effect)
    except ValueError:
        return str(mode)


def switch_setting(option: str, rules: Rules) -> str:
    """One yes/no option of `rules` as the help page lists it ("Late-draw penalty: on")."""
    words = SWITCH_WORDS[option]
    return _("{setting}: {value}").format(
        setting=_(words.setting), value=_(words.on if getattr(rules, option) else words.off))


def deck_label(deck: str) -> str:
    """A deck in words ("112-card 2022 deck")."""
    return _(DECK_WORDS[deck]) if deck in DECK_WORDS else _("{deck} deck").format(deck=deck)


def preset_label(rules: Rules) -> str:
    """The preset `rules` came from, with its deck ("1980-set99 (54-card 1980 deck)")."""
    return _("{preset} ({deck})").format(preset=rules.name, deck=deck_label(rules.deck))


# The names printed on the cards that are not numbers, as the rule books name them (the
# engine's `Card.label` is English; the glossary beside each catalog cites the books).
CARD_NAMES = (N_("Reverse"), N_("Play 2"), N_("Double Play"), N_("Hold"), N_("ONO 99"))


def card_label(card: Card, rules: Rules | None = None) -> str:
    """The name on `card` in the edition of `rules`, in the language in use ("7", "-10"
    and the other numbers as they are)."""
    return _(card.label(rules))
