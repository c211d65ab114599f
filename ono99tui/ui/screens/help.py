"""The rules of this table's preset and options, and the keys, in one scrollable page."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ono99tui.game import Card, Rules, Scoring, preset
from ono99tui.i18n import N_, _
from ono99tui.ui.screens.own_modal import OwnModal
from ono99tui.ui.session_app import SessionApp
from ono99tui.words.rule_labels import (
    ONO99_WORDS,
    card_label,
    preset_label,
    scoring_label,
    scoring_rule,
    switch_setting,
)

if TYPE_CHECKING:
    from textual import getters


# The keys and what they do, one line each (the keys column is not translated).
KEYS: tuple[tuple[str, str], ...] = (
    ("1-4", N_("play (or discard) that card; arrows + Enter work too, so does a click")),
    ("s", N_("swap four ONO 99 cards (2022 rules, when you hold four)")),
    ("d", N_("draw your card (late-draw rule only: before the next player plays!)")),
    ("PgUp / PgDn", N_("scroll the log (up/down a line, Home the match before, End the newest)")),
    ("w", N_("matches won at this table (once the match is over: its results)")),
    ("r", N_("rematch (once the match is over)")),
    ("o", N_("the host: back to the waiting room to change the rules (match over)")),
    ("k", N_("the host: set or stop the turn clock, in the middle of a match too")),
    ("t", N_("take a free seat for the next match (watching, once the match is over)")),
    ("c", N_("say something to the table (one line; spectators too, if the host lets them)")),
    ("5-9", N_("quick emotes: Hello! Nice play! Oops! Your turn! Good game!")),
    ("m", N_("mute / unmute someone at the table (for you only, this session)")),
    ("h", N_("a hint on your turn: each card's chances (where the table allows hints)")),
    (N_("? or F1"), N_("this page")),
    ("Ctrl+P", N_("command palette: themes, ASCII glyphs, quit")),
    ("F2", N_("switch between Unicode and ASCII glyphs")),
    (N_("q or Ctrl+Q"), N_("quit (asks first in the middle of a match)")),
)


def keys_text() -> str:
    """The keys page, in the language in use."""
    # The keys' column padded in cells: a translated "or" may be in any script.
    return "\n".join(f"{_(keys)}{' ' * max(1, 15 - cell_len(_(keys)))}{_(words)}"
                     for keys, words in KEYS)


def _answers(rules: Rules) -> str:
    names = [card_label(card, rules) for card in rules.obligation_answers]
    if not names:
        return _("nothing")
    if len(names) == 1:
        return names[0]
    return _("{first} or {second}").format(first=", ".join(names[:-1]), second=names[-1])


def rules_sections(rules: Rules) -> list[tuple[str, str]]:
    """(heading, text) pairs describing `rules` in plain words."""
    play_two = card_label(Card.PLAY2, rules)
    max_total = rules.bust_at - 1
    turn = _(
        "Play one card from your hand: the running total changes by its value and the new "
        "total is announced. Then draw back to four. A play that would take the total above "
        "{limit} is not allowed; if you have no play allowed, you bust."
    ).format(limit=max_total)
    if rules.late_draw_penalty:
        turn += " " + _(
            "Late-draw rule: press d to draw yourself before the next player plays,"
            " or play on one card short."
        )
    cards = [
        _("{lowest}-10: add their value.").format(lowest="0" if rules.deck == "2022" else "2"),
        _("-10: subtracts 10.") if rules.negative_totals
        else _("-10: subtracts 10 (the total never goes below 0)."),
        _("{reverse}: the direction of play turns round (with two players it is worth 0).").format(
            reverse=card_label(Card.REVERSE, rules)),
        _("{play_two}: the next player must play two cards; they may answer with {answers} "
          "to pass the obligation on instead.").format(play_two=play_two,
                                                       answers=_answers(rules)),
    ]
    if not rules.obligation_card_first:
        cards.append(_("A {play_two} may not be the first of your two cards.").format(
            play_two=play_two))
    if rules.deck == "1980":
        cards.append(_("{hold}: the total stays the same.").format(
            hold=card_label(Card.HOLD, rules)))
    ono99 = _(ONO99_WORDS[rules.ono99_card].rule)
    if rules.four_ono99_swap:
        ono99 += " " + _(
            "Holding four, you may discard all four as your play and draw four new ones (s).")
    if rules.dead_hand_busts:
        ono99 += " " + _("A hand of only ONO 99 cards busts.")
    cards.append(ono99)
    scoring = _("Scoring: {mode}").format(mode=scoring_label(rules.scoring))
    if rules.scoring == Scoring.TOKENS:
        scoring = _("Scoring: {mode}, {tokens} tokens each").format(
            mode=scoring_label(rules.scoring), tokens=rules.tokens)
    elif rules.scoring.counts_points:
        scoring = _("Scoring: {mode}, target {target}").format(
            mode=scoring_label(rules.scoring), target=rules.target)
    options = [
        _("Highest total allowed: {limit}").format(limit=max_total),
        switch_setting("negative_totals", rules),
        # The words the waiting room's drop-down names the mode with: one name for it.
        scoring,
        switch_setting("late_draw_penalty", rules),
        switch_setting("four_ono99_swap", rules),
        switch_setting("reveal_eliminated", rules),
    ]
    return [
        (_("Rules: {preset}").format(preset=preset_label(rules)), turn),
        (_("This table's options"), "\n".join(options)),
        (_("The cards"), "\n".join(f"- {line}" for line in cards)),
        (_("Winning"), scoring_rule(rules)),
        (_("Keys"), keys_text()),
    ]


class HelpScreen(OwnModal[None]):
    """The rules of the current table (its view's rules, else the lobby's preset), or of
    the `rules` given (a replayed match's)."""

    CSS_PATH = "help.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", _("Close"))
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
        self.query_one("#help").border_title = _("How to play (Esc to close)")

    def _rules(self) -> Rules:
        if self._shown_rules is not None:
            return self._shown_rules
        session = self.app.session
        view, lobby = session.view, session.lobby
        # In the waiting room the next match's rules, not those of the match before it.
        if view is not None and (lobby is None or lobby.phase != "waiting"):
            return view.rules
        return session.options.rules or (view.rules if view is not None else preset())
