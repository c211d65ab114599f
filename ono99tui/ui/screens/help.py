"""The rules of this table's preset and options, and the keys, in one scrollable page."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ono99tui.game import Card, Rules, Scoring, preset
from ono99tui.ui.screens.own_modal import OwnModal
from ono99tui.ui.session_app import SessionApp
from ono99tui.words.rule_labels import (
    ONO99_WORDS,
    preset_label,
    scoring_label,
    scoring_rule,
    switch_setting,
)

if TYPE_CHECKING:
    from textual import getters


KEYS = """\
1-4            play (or discard) that card; arrows + Enter work too, so does a click
s              swap four ONO 99 cards (2022 rules, when you hold four)
d              draw your card (late-draw rule only: before the next player plays!)
PgUp / PgDn    scroll the log (up/down a line, Home the match before, End the newest)
w              matches won at this table (once the match is over: its results)
r              rematch (once the match is over)
o              the host: back to the waiting room to change the rules (match over)
k              the host: set or stop the turn clock, in the middle of a match too
t              take a free seat for the next match (watching, once the match is over)
c              say something to the table (one line; spectators too, if the host lets them)
5-9            quick emotes: Hello! Nice play! Oops! Your turn! Good game!
m              mute / unmute someone at the table (for you only, this session)
h              a hint on your turn: each card's chances (where the table allows hints)
? or F1        this page
Ctrl+P         command palette: themes, ASCII glyphs, quit
F2             switch between Unicode and ASCII glyphs
q or Ctrl+Q    quit (asks first in the middle of a match)"""


def _answers(rules: Rules) -> str:
    return " or ".join(card.label(rules) for card in rules.obligation_answers) or "nothing"


def rules_sections(rules: Rules) -> list[tuple[str, str]]:
    """(heading, text) pairs describing `rules` in plain words."""
    play_two = Card.PLAY2.label(rules)
    max_total = rules.bust_at - 1
    turn = (
        "Play one card from your hand: the running total changes by its value and the new "
        f"total is announced. Then draw back to four. A play that would take the total above "
        f"{max_total} is not allowed; if you have no play allowed, you bust."
    )
    if rules.late_draw_penalty:
        turn += (
            " Late-draw rule: press d to draw yourself before the next player plays,"
            " or play on one card short."
        )
    cards = [
        f"{'0' if rules.deck == '2022' else '2'}-10: add their value.",
        f"-10: subtracts 10{'' if rules.negative_totals else ' (the total never goes below 0)'}.",
        "Reverse: the direction of play turns round (with two players it is worth 0).",
        f"{play_two}: the next player must play two cards; they may answer with {_answers(rules)} "
        "to pass the obligation on instead.",
    ]
    if not rules.obligation_card_first:
        cards.append(f"A {play_two} may not be the first of your two cards.")
    if rules.deck == "1980":
        cards.append("Hold: the total stays the same.")
    ono99 = ONO99_WORDS[rules.ono99_card].rule
    if rules.four_ono99_swap:
        ono99 += " Holding four, you may discard all four as your play and draw four new ones (s)."
    if rules.dead_hand_busts:
        ono99 += " A hand of only ONO 99 cards busts."
    cards.append(ono99)
    options = [
        f"Highest total allowed: {max_total}",
        switch_setting("negative_totals", rules),
        # The words the waiting room's drop-down names the mode with: one name for it.
        f"Scoring: {scoring_label(rules.scoring)}"
        + (f", {rules.tokens} tokens each" if rules.scoring == Scoring.TOKENS else "")
        + (f", target {rules.target}" if rules.scoring.counts_points else ""),
        switch_setting("late_draw_penalty", rules),
        switch_setting("four_ono99_swap", rules),
        switch_setting("reveal_eliminated", rules),
    ]
    return [
        (f"Rules: {preset_label(rules)}", turn),
        ("This table's options", "\n".join(options)),
        ("The cards", "\n".join(f"- {line}" for line in cards)),
        ("Winning", scoring_rule(rules)),
        ("Keys", KEYS),
    ]


class HelpScreen(OwnModal[None]):
    """The rules of the current table (its view's rules, else the lobby's preset), or of
    the `rules` given (a replayed match's)."""

    CSS_PATH = "help.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close")
    ]

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self._shown_rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            for heading, text in rules_sections(self._rules()):
                # markup=False: a table's rules carry a name of its choosing.
                yield Static(heading, classes="help-heading", markup=False)
                yield Static(text, classes="help-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help").border_title = "How to play (Esc to close)"

    def _rules(self) -> Rules:
        if self._shown_rules is not None:
            return self._shown_rules
        session = self.app.session
        view, lobby = session.view, session.lobby
        # In the waiting room the next match's rules, not those of the match before it.
        if view is not None and (lobby is None or lobby.phase != "waiting"):
            return view.rules
        return session.options.rules or (view.rules if view is not None else preset())
