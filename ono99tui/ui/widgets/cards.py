"""The player's hand: one focusable widget per card, and the row that holds them.

A card shows its key (1-4), its kind's symbol, its value in large digits and a one-word
effect. Each kind has a CSS class (`kind-number`, `kind-reverse`, ...) for its colour, and
its own symbol, so a player who cannot tell the colours apart loses nothing. A card that
cannot be played now is dimmed, carries a "blocked" mark, and says why when focused.

Widgets here only display and report: `CardWidget.Chosen` travels up when a card is clicked
or Enter is pressed; the screen decides what that means (play, discard).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ono99tui.i18n import _
from ono99tui.ui.glyphs import Glyphs, current_glyphs
from ono99tui.ui.widgets.glyph_aware import RedrawnWithGlyphs
from ono99tui.ui.widgets.static_text import update_if_changed

# Kind -> the attribute of `Glyphs` holding its symbol.
_KIND_SYMBOL = {
    "number": "number",
    "ten": "ten",
    "minus-ten": "minus_ten",
    "reverse": "reverse",
    "play-two": "play_two",
    "hold": "hold",
    "ono99": "ono99",
}


@dataclass(frozen=True)
class CardFace:
    """What a card looks like, independent of the glyph set.

    `kind` is one of the keys of `_KIND_SYMBOL` and names the CSS class; `big` is drawn in
    the three-row font (empty for cards without a number); `title` is the card's name and
    `effect` a few words on what it does; `word` names it in one short word (at most
    seven columns), for the one-line cards of a small terminal.
    """

    kind: str
    big: str
    title: str
    effect: str
    word: str = ""

    def symbol(self, glyphs: Glyphs) -> str:
        """The kind's symbol in the given glyph set."""
        return str(getattr(glyphs, _KIND_SYMBOL[self.kind]))


@dataclass(frozen=True)
class CardSlot:
    """One card in the hand as the screen hands it down: its face and whether it may go now.

    `reason` says why a card cannot be chosen (empty when it can). The hand repaints a
    card only when its `look` changes: a new reason, or a waiting card becoming playable,
    changes nothing drawn on it.
    """

    face: CardFace
    playable: bool
    reason: str = ""
    # Not the viewer's moment to act: the card is drawn plainly (nothing about it is wrong)
    # and cannot be chosen. Dimming the whole hand on every opponent's turn would repaint
    # all four cards twice a round.
    waiting: bool = False

    @property
    def blocked(self) -> bool:
        """Drawn as unplayable: the viewer is to act and this card may not go."""
        return not self.playable and not self.waiting

    @property
    def look(self) -> tuple[CardFace, bool]:
        """Everything that decides how the card is drawn."""
        return self.face, self.blocked


class CardWidget(RedrawnWithGlyphs, can_focus=True):
    """One card of the hand. Posts `Chosen` on click or Enter."""

    DEFAULT_CSS = """
    CardWidget {
        width: 14;
        height: 7;
        border: round $foreground 60%;
        padding: 0;
        margin: 0 1 0 0;
        text-style: bold;
    }
    CardWidget.kind-number { color: $text-primary; border: round $primary; }
    CardWidget.kind-ten { color: $text-success; border: round $success; }
    CardWidget.kind-minus-ten { color: $text-secondary; border: round $secondary; }
    CardWidget.kind-reverse { color: $text-accent; border: heavy $accent; }
    CardWidget.kind-play-two { color: $text-warning; border: heavy $warning; }
    CardWidget.kind-hold { color: $foreground; border: heavy $foreground; }
    CardWidget.kind-ono99 { color: $text-error; border: double $error; }
    CardWidget.-unplayable {
        color: $text-muted;
        border: dashed $foreground 30%;
        text-style: not bold;
    }
    CardWidget { border-title-align: left; }
    CardWidget:focus { background: $boost; border: thick $accent; }
    CardWidget.-unplayable:focus { border: thick $foreground 50%; }
    /* 16 colours: a dimmed colour is the terminal's own white there, brighter than the
       cards that may be played; grey says "not now". */
    CardWidget.-unplayable:ansi { color: ansi_bright_black; border: dashed ansi_bright_black; }
    CardWidget.-unplayable:ansi:focus { border: thick ansi_white; }
    .-ascii CardWidget { border: ascii $foreground 60%; }
    .-ascii CardWidget.kind-number { border: ascii $primary; }
    .-ascii CardWidget.kind-ten { border: ascii $success; }
    .-ascii CardWidget.kind-minus-ten { border: ascii $secondary; }
    .-ascii CardWidget.kind-reverse { border: ascii $accent; }
    .-ascii CardWidget.kind-play-two { border: ascii $warning; }
    .-ascii CardWidget.kind-hold { border: ascii $foreground; }
    .-ascii CardWidget.kind-ono99 { border: ascii $error; }
    .-ascii CardWidget.-unplayable { border: ascii $foreground 30%; }
    .-ascii CardWidget:focus { border: ascii $accent; text-style: bold reverse; }
    """

    # Not scoped: the ASCII rules select on the app's -ascii class, above this widget.
    SCOPED_CSS = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "choose", _("Play"), show=False)]

    slot: reactive[CardSlot | None] = reactive(None)  # cards have a fixed size: no relayout

    class Chosen(Message):
        """The player picked this card (click or Enter)."""

        def __init__(self, card: CardWidget) -> None:
            super().__init__()
            self.card = card

        @property
        def index(self) -> int:
            """Position of the card in the hand, from 0."""
            return self.card.index

    class Focused(Message):
        """This card got the focus; the hand shows its reason, if any."""

        def __init__(self, card: CardWidget) -> None:
            super().__init__()
            self.card = card

    def __init__(self, index: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.index = index

    def watch_slot(self, old: CardSlot | None, new: CardSlot | None) -> None:
        if old is not None:
            self.remove_class(f"kind-{old.face.kind}")
        if new is not None:
            self.add_class(f"kind-{new.face.kind}")
            self.set_class(new.blocked, "-unplayable")
            self.tooltip = tooltip_for(new)

    def render(self) -> Content:
        slot = self.slot
        if slot is None:
            return Content("")
        glyphs = current_glyphs(self)
        face = slot.face
        width = max(self.content_size.width, 1)
        key = str(self.index + 1)
        mark = f" {glyphs.blocked}" if slot.blocked else ""
        symbol = face.symbol(glyphs)
        if self.content_size.height < 5:  # the screen's compact layout
            return Content(self._compact_line(key, mark.strip(), symbol, face))
        self._set_title("")
        corner = f"{key}{mark}"
        top = corner + symbol.rjust(width - len(corner))
        big_rows = glyphs.big(face.big) if face.big else ("", face.title.upper(), "")
        rows = [top, *(row.center(width) for row in big_rows), center_cells(face.effect, width)]
        return Content("\n".join(rows))

    def _compact_line(self, key: str, mark: str, symbol: str, face: CardFace) -> str:
        """The one line a compact card has: "1 ⊘ ✖ dead 99", or "1 ⊘ ✖ 99" where that fits;
        where neither does (a 40-column terminal), the key, mark and symbol move to the
        card's top border so the line keeps its word."""
        width = self.content_size.width
        corner = f"{key}{' ' + mark if mark else ''} {symbol}"
        word = face.word or face.big or face.title
        for line in (f"{corner} {word}", f"{corner} {face.big or face.title}"):
            if len(line) <= width:
                self._set_title("")
                return line
        self._set_title(f"{key}{mark}{symbol}")
        return word.center(width) if len(word) <= width else word[:width]

    def _set_title(self, title: str) -> None:
        # Only a change repaints the border, so rendering again settles at once.
        if self.border_title != title:
            self.border_title = title

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.post_message(self.Chosen(self))

    def on_focus(self, event: events.Focus) -> None:
        self.post_message(self.Focused(self))
        self.place_cursor()
        self.call_after_refresh(self.place_cursor)  # once the layout has placed the card

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.place_cursor)

    def place_cursor(self) -> None:
        """Put the terminal's cursor on this card while it has the focus: a braille
        display (BRLTTY) and a screen reader's review cursor follow the terminal's cursor,
        so the card the keys act on is the one they show (Textual leaves it hidden)."""
        if self.has_focus and self.is_mounted:
            self.app.cursor_position = self.content_region.offset

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self))


def tooltip_for(slot: CardSlot) -> Text | None:
    """The card's tooltip: why it cannot be chosen, as plain text (a str tooltip is read
    as markup, and a bracket in the words would be taken for a tag), or None."""
    return Text(slot.reason) if slot.reason else None


class HandView(Widget):
    """The row of cards plus a hint line that explains the focused card.

    `show()` updates the cards in place (no recompose), so a new hand costs only the
    repaint of the cards that changed.
    """

    DEFAULT_CSS = """
    HandView { height: auto; width: 1fr; }
    HandView > Horizontal { height: auto; width: 1fr; align-horizontal: center; }
    HandView > #hand-hint {
        height: 1; width: 1fr; content-align: center middle; color: $text-muted;
    }
    HandView > #hand-hint.-blocked { color: $text-warning; }
    """

    _verb = "plays"  # or "discards": which sentence the hint line says (see `_explain`)


    def compose(self) -> ComposeResult:
        yield Horizontal(id="hand-cards")
        yield Static("", id="hand-hint", markup=False)  # words, never markup

    @property
    def cards(self) -> list[CardWidget]:
        """The card widgets, in hand order."""
        return list(self.query_one("#hand-cards").query_children(CardWidget))

    def show(self, slots: Sequence[CardSlot], *, verb: str = "plays") -> None:
        """Display these cards, reusing the existing widgets where possible; `verb` is what
        choosing a card does ("plays", or "discards" after a points-mode bust)."""
        self._verb = verb
        row = self.query_one("#hand-cards", Horizontal)
        widgets = self.cards
        if len(widgets) > len(slots):
            # All at once: removed one by one, the focus would hop from each card to the
            # next one going, and stay on a removed card (the keys then reach nothing).
            row.remove_children(widgets[len(slots) :])
            if not slots:
                self.set_hint("")  # it explained a card that is gone
        missing = [CardWidget(index) for index in range(len(widgets), len(slots))]
        if missing:
            row.mount_all(missing)
        for widget, slot in zip([*widgets[: len(slots)], *missing], slots, strict=True):
            if widget.slot is None or widget.slot.look != slot.look:
                widget.slot = slot
            else:
                # Same drawing (say, a waiting card that became playable): no repaint.
                widget.set_reactive(CardWidget.slot, slot)
                widget.tooltip = tooltip_for(slot)
            if widget.has_focus:
                self._explain(widget)

    def set_hint(self, text: str, *, blocked: bool = False) -> None:
        """Replace the hint line (the screen uses it for prompts like "choose a discard")."""
        hint = self.query_one("#hand-hint", Static)
        update_if_changed(hint, text)
        hint.set_class(blocked, "-blocked")

    def on_card_widget_focused(self, message: CardWidget.Focused) -> None:
        self._explain(message.card)

    def _explain(self, card: CardWidget) -> None:
        slot = card.slot
        if slot is None:
            return
        if slot.playable:
            # Two whole sentences: the verb's place differs between languages.
            sentence = (_("{key} discards {card} ({effect})") if self._verb == "discards"
                        else _("{key} plays {card} ({effect})"))
            self.set_hint(sentence.format(key=card.index + 1, card=slot.face.title,
                                          effect=slot.face.effect))
        elif slot.waiting:
            self.set_hint(_("{key}: {card} ({effect}), {reason}").format(
                key=card.index + 1, card=slot.face.title, effect=slot.face.effect,
                reason=slot.reason))
        else:
            self.set_hint(
                _("{key}: {card} cannot be played: {reason}").format(
                    key=card.index + 1, card=slot.face.title, reason=slot.reason),
                blocked=True,
            )

    def action_move(self, step: int) -> None:
        """Move the focus `step` cards to the right (wrapping round)."""
        cards = self.cards
        if not cards:
            return
        focused = next((i for i, card in enumerate(cards) if card.has_focus), -1)
        cards[(focused + step) % len(cards)].focus()


def center_cells(text: str, width: int) -> str:
    """`text` centred in `width` terminal cells (str.center counts code points, and a
    Bengali or Kannada word has more code points than cells)."""
    spare = width - cell_len(text)
    if spare <= 0:
        return text
    return " " * (spare // 2) + text + " " * (spare - spare // 2)
