"""The human wording of every rule option and preset: one table the screens share.

The waiting room (its drop-downs, check boxes and one-line summary), the help page (`?`)
and the presenter (the effect printed on an ONO 99 card) all name the rules in these words;
a rule option or mode added to the engine gets its wording here, once.
"""

from __future__ import annotations

from dataclasses import dataclass

from ono99tui.game.rules import Ono99Card, Rules, Scoring


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
    on: str = "on"
    off: str = "off"


SCORING_WORDS: dict[Scoring, ModeWords] = {
    Scoring.SINGLE: ModeWords(
        "single round", "One round: who busts is out; the last player left wins."),
    Scoring.TOKENS: ModeWords(
        "tokens",
        "Everyone starts with {tokens} tokens. Who busts loses one and a new round is dealt, "
        "started by them; busting with no tokens left puts you out. Last player left wins."),
    Scoring.POINTS_ELIMINATION: ModeWords(
        "points, elimination",
        "Who busts sits out the rest of the round after discarding one card. At the end of "
        "each round everyone scores their hand; reaching {target} puts you out. Last player "
        "left wins."),
    Scoring.POINTS_LOWEST: ModeWords(
        "points, lowest wins",
        "Who busts sits out the rest of the round after discarding one card. At the end of "
        "each round everyone scores their hand; when anyone reaches {target} the match ends "
        "and the lowest score wins."),
}
# What the points modes add to their rule on the help page.
HAND_SCORES = ("Hand scores: number cards their value, ONO 99 20, other cards 15, 15 per "
               "missing card, +25 for busting.")

ONO99_WORDS: dict[Ono99Card, ModeWords] = {
    Ono99Card.DEAD: ModeWords(
        "dead, never played", "ONO 99: can never be played; it only takes up room in your hand.",
        "dead card"),
    Ono99Card.TENS: ModeWords(
        "on 0, 10, 20...",
        "ONO 99: may be played, worth 0, when the total ends in 0 (one per turn).", "0 on tens"),
    Ono99Card.SET99: ModeWords(
        "sets total to 99", "ONO 99: sets the total to exactly 99.", "sets 99"),
}

# The yes/no options the host may switch in the waiting room, in the order shown there.
RULE_SWITCHES: tuple[SwitchWords, ...] = (
    SwitchWords("four_ono99_swap", "Swap four ONO 99", "Four-ONO-99 swap"),
    SwitchWords("negative_totals", "Negative totals", "Totals below 0",
                on="allowed", off="no, the total stops at 0"),
    SwitchWords("late_draw_penalty", "Late-draw penalty", "Late-draw penalty"),
)
# Yes/no options the help page lists but the waiting room does not offer.
REVEAL_ELIMINATED = SwitchWords("reveal_eliminated", "Show eliminated hands",
                                "Hands of eliminated players", on="shown", off="kept hidden")
SWITCH_WORDS: dict[str, SwitchWords] = {
    words.option: words for words in (*RULE_SWITCHES, REVEAL_ELIMINATED)
}

# Each deck as the help page names it (a preset is named by its own name and its deck).
DECK_WORDS: dict[str, str] = {"2022": "112-card 2022 deck", "1980": "54-card 1980 deck"}


def scoring_label(scoring: str) -> str:
    """A scoring mode in a few words ("points, lowest wins"); an unknown mode as it is."""
    try:
        return SCORING_WORDS[Scoring(scoring)].label
    except ValueError:
        return str(scoring)


def scoring_rule(rules: Rules) -> str:
    """How `rules` score and win a match, in full (the help page's "Winning")."""
    text = SCORING_WORDS[rules.scoring].rule.format(tokens=rules.tokens, target=rules.target)
    return f"{text} {HAND_SCORES}" if rules.scoring.counts_points else text


def ono99_effect(mode: str) -> str:
    """What the ONO 99 card does under `mode`, in the few words printed on the card."""
    try:
        return ONO99_WORDS[Ono99Card(mode)].effect
    except ValueError:
        return str(mode)


def switch_setting(option: str, rules: Rules) -> str:
    """One yes/no option of `rules` as the help page lists it ("Late-draw penalty: on")."""
    words = SWITCH_WORDS[option]
    return f"{words.setting}: {words.on if getattr(rules, option) else words.off}"


def deck_label(deck: str) -> str:
    """A deck in words ("112-card 2022 deck")."""
    return DECK_WORDS.get(deck, f"{deck} deck")


def preset_label(rules: Rules) -> str:
    """The preset `rules` came from, with its deck ("1980-set99 (54-card 1980 deck)")."""
    return f"{rules.name} ({deck_label(rules.deck)})"
