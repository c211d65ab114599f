"""The turn alert: the terminal bell and the terminal's title when the player must act.

A player in another window (or across the room) hears the bell and sees "your turn" in
the title. It sounds when the viewer's turn comes, and when they are made to owe two cards
(a Play 2 / Double Play passed to them), never on another player's turn. Players who do
not want it turn it off in the command palette; the choice is remembered
(`ono99tui.user_settings.Settings.turn_alert`).

`alert_due` is pure (two views in, a yes or no out): the app asks it on every new view.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ono99tui.i18n import N_, _
from ono99tui.user_settings import ConfigError, Settings, load_settings, save_settings

if TYPE_CHECKING:
    from ono99tui.game import PlayerView

TITLE_IDLE = "ONO 99"
TITLE_YOUR_TURN = N_("ONO 99: your turn!")  # shown translated (title_for)


def must_act(view: PlayerView | None) -> bool:
    """Must the viewer act now: a card to play, four ONO 99 to swap or a discard to choose?
    (A pending late draw alone is not a turn: the player has just played.)"""
    from ono99tui.game import Draw  # loaded by the time a view exists

    if view is None or view.seat is None:
        return False
    return any(not isinstance(move, Draw) for move in view.legal_moves)


def owes_cards(view: PlayerView | None) -> bool:
    """Is the viewer the one who owes two cards?"""
    return view is not None and view.seat is not None and view.obligation_seat == view.seat


def alert_due(before: PlayerView | None, after: PlayerView) -> bool:
    """Should the bell ring as `after` replaces `before` (the view shown until now)?"""
    if before is not None and before.seat != after.seat:
        before = None  # another seat's view (a new connection): judge the new one alone
    return (must_act(after) and not must_act(before)) or (
        owes_cards(after) and not owes_cards(before)
    )


def title_for(view: PlayerView | None) -> str:
    """The terminal title for this view."""
    return _(TITLE_YOUR_TURN) if must_act(view) else TITLE_IDLE


class TurnAlert:
    """The alert's switch (read from the settings on first use, saved when changed) and the
    title last written, so the title is written only when it changes."""

    def __init__(self, config_directory: Path | None = None) -> None:
        self._config_directory = config_directory
        self._enabled: bool | None = None
        self.title: str | None = None

    @property
    def enabled(self) -> bool:
        """Is the alert on? (On unless the player turned it off; a damaged settings file
        leaves it on.)"""
        if self._enabled is None:
            try:
                self._enabled = load_settings(self._config_directory).turn_alert
            except ConfigError:
                self._enabled = True
        return self._enabled

    def set_enabled(self, enabled: bool) -> None:
        """Switch the alert and remember it; raises ConfigError if it cannot be saved (the
        switch still holds for this run)."""
        self._enabled = enabled
        try:
            settings = load_settings(self._config_directory)
        except ConfigError:
            settings = Settings()  # a damaged file is replaced, as the lobby does
        save_settings(replace(settings, turn_alert=enabled), self._config_directory)

    def follow(self, before: PlayerView | None, after: PlayerView) -> tuple[bool, str | None]:
        """(ring the bell?, the new terminal title or None to leave it) as `after` replaces
        `before` on screen."""
        return self.take(alert_due(before, after), title_for(after))

    def take(self, due: bool, title: str) -> tuple[bool, str | None]:
        """(ring the bell?, the new terminal title or None to leave it), given whether the
        session says the alert is `due` and the title it says the view has now."""
        if not self.enabled:
            return False, None
        changed = title if title != self.title else None
        self.title = title
        return due, changed
