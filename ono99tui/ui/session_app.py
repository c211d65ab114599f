"""The app as its screens see it: the client session as one typed reactive, the glyphs, the
signals that carry the log and table talk, and the little a screen may ask of the app.

Screens import this module, never `ono99tui.ui.app` (the adapter that runs the connection
and carries the session's outputs out, which imports the screens): so the UI has no import
circle, not even one for type checkers. A screen reads `self.app.session` (a
`ono99tui.client.session.TableSession`), follows the parts it shows with `watch_session`,
and asks for anything that needs the table with a message (`ono99tui.ui.requests`) or an
app-level action (`app.chat`, `app.mute`, `app.rules`, `app.quit`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.dom import DOMNode
from textual.reactive import reactive
from textual.screen import Screen
from textual.signal import Signal

from ono99tui.client.outputs import LogCleared
from ono99tui.client.session import TableSession
from ono99tui.client.story import LogChange, SaidItem
from ono99tui.ui.glyphs import Glyphs, glyphs_for

LogSignal = LogChange | LogCleared


class SessionApp(App[None]):
    """The session, the glyphs and the signals; `Ono99App` is the one subclass."""

    # always_update: the session is one object, changed in place; the app sets it again
    # after each change so that watchers run. repaint=False: the screens repaint what they
    # show (each repaint is bytes on the wire).
    session: reactive[TableSession] = reactive(TableSession, always_update=True,
                                               repaint=False, init=False)
    glyphs: reactive[Glyphs] = reactive(glyphs_for(False), repaint=False)

    def __init__(self) -> None:
        super().__init__()
        # The match's log changed (the table screen shows it); a line of talk came (the
        # waiting room's talk pane shows it). Published as the session says so.
        self.log_changed: Signal[LogSignal] = Signal(self, "log-changed")
        self.talk_heard: Signal[SaidItem] = Signal(self, "talk-heard")
        # The glyph set changed: each widget that draws with it redraws itself
        # (`ui/widgets/glyph_aware.py`).
        self.glyphs_changed: Signal[Glyphs] = Signal(self, "glyphs-changed")
        # The clock the session's times are on (the turn clock's deadline, when the table's
        # items came): monotonic; a test gives a fake one, so countdowns never race real time.
        self.clock: Callable[[], float] = time.monotonic
        # The lobby screen this table was joined from, which leaving goes back to (None:
        # the app opened on the table, as `ono99 host` and `ono99 solo` do).
        self.joined_from: Screen[Any] | None = None

    def can_leave_table(self, room: Screen[Any]) -> bool:
        """May the player leave the table shown on `room` for the lobby they joined it from,
        under it? (Not at the host's own table, nor in solo: no lobby to go back to.)"""
        stack = self.screen_stack
        if self.joined_from is None or room not in stack or self.session.taking_seat:
            return False
        # Right under it, or under the table the room was opened over after a match.
        return self.joined_from in stack[:stack.index(room)]


def watch_session(node: DOMNode, part: Callable[[TableSession], object],
                  callback: Callable[[Any], object], *, init: bool = True) -> None:
    """Call `callback(part(session))` whenever that part of the app's session is replaced
    (the view, the lobby, the connection's state...), and at once when `init`."""
    unseen = object()
    last: list[object] = [unseen]

    def changed(session: TableSession) -> None:
        now = part(session)
        if now is last[0]:
            return
        last[0] = now
        callback(now)

    app = node.app
    assert isinstance(app, SessionApp), "watch_session needs the app's session"
    node.watch(app, "session", changed, init=False)
    if init:
        changed(app.session)
    else:
        last[0] = part(app.session)
