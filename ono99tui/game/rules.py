"""Rule options as data, and the named presets of RULES.md §5."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from ono99tui.game.cards import DECK_NAMES, Card
from ono99tui.game.errors import InvalidRules, UnknownPreset


class Ono99Card(enum.StrEnum):
    """What the ONO 99 card does (RULES.md §4)."""

    DEAD = "dead"  # never played: it only takes room in the hand
    TENS = "tens"  # worth 0, playable when the total ends in 0 (one per turn)
    SET99 = "set99"  # sets the total to 99


class Scoring(enum.StrEnum):
    """How a match is scored and won (RULES.md §3)."""

    SINGLE = "single"
    TOKENS = "tokens"
    POINTS_ELIMINATION = "points-elimination"
    POINTS_LOWEST = "points-lowest"

    @property
    def counts_points(self) -> bool:
        """Is this one of the points modes (hands scored at the end of each round)?"""
        return self in _POINTS_MODES


_POINTS_MODES = frozenset({Scoring.POINTS_ELIMINATION, Scoring.POINTS_LOWEST})
ONO99_MODES: tuple[Ono99Card, ...] = tuple(Ono99Card)
SCORING_MODES: tuple[Scoring, ...] = tuple(Scoring)
# Cards that may be named as answers to a Play 2 / Double Play obligation.
ANSWER_CARDS: frozenset[Card] = frozenset({Card.REVERSE, Card.PLAY2, Card.HOLD})
MIN_PLAYERS = 2
MAX_PLAYERS = 8
HAND_SIZE = 4


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of RULES.md. Build one with `preset(name)` and `.replace(...)`.

    `name` is the preset the options came from; `replace` keeps it unless told otherwise.
    """

    name: str = "2022"
    deck: str = "2022"
    # The first illegal total: a play making the total >= bust_at is illegal.
    bust_at: int = 99
    negative_totals: bool = False
    ono99_card: Ono99Card = Ono99Card.DEAD
    four_ono99_swap: bool = True
    dead_hand_busts: bool = False
    obligation_answers: tuple[Card, ...] = (Card.REVERSE, Card.PLAY2)
    # May the obligation card (Play 2 / Double Play) be the first of the two owed cards?
    obligation_card_first: bool = True
    scoring: Scoring = Scoring.SINGLE
    target: int = 100
    tokens: int = 3
    late_draw_penalty: bool = False
    # Is an eliminated player's hand shown to everyone?
    reveal_eliminated: bool = True

    def __post_init__(self) -> None:
        _validate(self)
        # One canonical order, so equal option sets compare (and hash) equal.
        object.__setattr__(self, "obligation_answers", tuple(sorted(self.obligation_answers)))

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; bad names or values raise InvalidRules."""
        known = {f.name for f in dataclasses.fields(self)}
        for option in options:
            if option not in known:
                raise InvalidRules(option, f"no such option; options: {', '.join(sorted(known))}")
        if "obligation_answers" in options:
            options["obligation_answers"] = _answers(options["obligation_answers"])
        return dataclasses.replace(self, **options)

    def options(self) -> dict[str, Any]:
        """Every option by name (including `name`)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def _answers(value: Any) -> tuple[Card, ...]:
    """Normalise an answers option (cards or card tokens) to a sorted tuple of cards."""
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise InvalidRules("obligation_answers", "must be a list of cards")
    cards: set[Card] = set()
    for item in value:
        if isinstance(item, Card):
            cards.add(item)
        elif isinstance(item, str) and item in {c.token for c in Card}:
            cards.add(Card.from_token(item))
        else:
            raise InvalidRules("obligation_answers", f"{item!r} is not a card")
    return tuple(sorted(cards))


def _check_type(rules: Rules, option: str, kind: type) -> None:
    value = getattr(rules, option)
    # bool is an int subclass: an int option must not accept True/False and vice versa.
    if type(value) is not kind:
        raise InvalidRules(option, f"must be {kind.__name__}, not {type(value).__name__}")


def _check_member(rules: Rules, option: str, vocabulary: type[enum.StrEnum]) -> None:
    """A string option of a closed vocabulary: stored as the member it names (so a rule
    set built from wire strings equals one built from the members)."""
    value = getattr(rules, option)
    try:
        member = vocabulary(value)
    except ValueError:
        raise InvalidRules(option, f"{value!r} is not one of {', '.join(vocabulary)}") from None
    object.__setattr__(rules, option, member)


def _validate(rules: Rules) -> None:
    for option in ("name", "deck"):
        _check_type(rules, option, str)
    for option in ("ono99_card", "scoring"):
        value = getattr(rules, option)
        if not isinstance(value, str):  # its member (a str) or the member's string
            raise InvalidRules(option, f"must be str, not {type(value).__name__}")
    for option in ("bust_at", "target", "tokens"):
        _check_type(rules, option, int)
    for option in (
        "negative_totals",
        "four_ono99_swap",
        "dead_hand_busts",
        "obligation_card_first",
        "late_draw_penalty",
        "reveal_eliminated",
    ):
        _check_type(rules, option, bool)
    if rules.deck not in DECK_NAMES:
        raise InvalidRules("deck", f"{rules.deck!r} is not one of {', '.join(DECK_NAMES)}")
    _check_member(rules, "ono99_card", Ono99Card)
    _check_member(rules, "scoring", Scoring)
    if not 20 <= rules.bust_at <= 1000:
        raise InvalidRules("bust_at", "must be between 20 and 1000")
    if not 1 <= rules.target <= 100_000:
        raise InvalidRules("target", "must be between 1 and 100000")
    if not 0 <= rules.tokens <= 100:
        raise InvalidRules("tokens", "must be between 0 and 100")
    answers = rules.obligation_answers
    if type(answers) is not tuple or not all(type(c) is Card for c in answers):
        raise InvalidRules("obligation_answers", "must be a tuple of cards")
    if any(c not in ANSWER_CARDS for c in answers) or len(set(answers)) != len(answers):
        raise InvalidRules(
            "obligation_answers", "only distinct Reverse, Play 2 and Hold may answer"
        )


_RULES_1980 = Rules(
    name="1980",
    deck="1980",
    bust_at=99,
    negative_totals=True,
    ono99_card=Ono99Card.DEAD,
    four_ono99_swap=False,
    dead_hand_busts=True,
    obligation_answers=(Card.REVERSE, Card.HOLD),
    obligation_card_first=False,
    scoring=Scoring.TOKENS,
    reveal_eliminated=False,
)

PRESETS: dict[str, Rules] = {
    "2022": Rules(),
    "1980": _RULES_1980,
    # The 1980 game where the ONO 99 card sets the total to 99, which is then allowed, and
    # a hand of only such cards is no longer dead.
    "1980-set99": _RULES_1980.replace(
        name="1980-set99", bust_at=100, ono99_card=Ono99Card.SET99, dead_hand_busts=False
    ),
}
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
DEFAULT_PRESET = "2022"


def preset(name: str = DEFAULT_PRESET) -> Rules:
    """The named preset ("2022", "1980", "1980-set99"); UnknownPreset lists the valid names."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise UnknownPreset(str(name), PRESET_NAMES) from None
