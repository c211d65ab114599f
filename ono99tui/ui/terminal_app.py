"""What the app is as a terminal program, whatever table it shows: the glyphs (Unicode or
ASCII) and the 16-colour theme, the drivers, toasts' places, screenshots, the window's
title, Ctrl+L and the keys that work everywhere. `Ono99App` (ui/app.py) adds the table.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES, Theme

from ono99tui import i18n
from ono99tui.access import HIGH_CONTRAST_ENV, asked_by_environment
from ono99tui.gc_freeze import freeze_startup_objects
from ono99tui.i18n import _
from ono99tui.ui.cell_widths import agree_with_terminal
from ono99tui.ui.drivers.diffing import DiffingDriver, ScreenDiffing
from ono99tui.ui.drivers.hangup import HangupReporter
from ono99tui.ui.glyphs import Glyphs, detect_ascii, glyphs_for
from ono99tui.ui.session_app import SessionApp

if TYPE_CHECKING:
    from textual.driver import Driver

# Seconds from start-up until the app's long-lived objects are frozen (ono99tui/gc_freeze.py).
SETTLE_SECONDS = 2.0
# Arrow keys as the Footer names them in ASCII mode (a terminal that cannot draw "→").
ASCII_KEY_NAMES = str.maketrans({"→": ">", "←": "<", "↑": "^", "↓": "v"})
# A theme for 16-colour terminals: the built-in ANSI theme uses green for both "success"
# and "accent", and the cards need them apart; bright blue for the primary colour: the
# number cards' text, and borders, in xterm's dark blue (0, 0, 238) were hard to read on
# black.
SIXTEEN_COLOUR_THEME = replace(BUILTIN_THEMES["ansi-dark"], name="ono99-16", accent="ansi_magenta",
                               primary="ansi_bright_blue")
# For low vision: white and yellow on black, every colour the cards and panels use at least
# 7:1 against the background (WCAG AAA; tests/ui/test_high_contrast.py measures it). Chosen
# with `--high-contrast` (or ONO99_HIGH_CONTRAST=1, which an SSH client may send), or from
# the command palette's themes.
HIGH_CONTRAST_THEME = Theme(
    name="ono99-high-contrast", primary="#ffffff", secondary="#ffff00", accent="#ffff00",
    foreground="#ffffff", background="#000000", surface="#000000", panel="#1a1a1a",
    success="#00ff00", warning="#ffff00", error="#ff8080", boost="#333333", dark=True,
)


def screenshot_directory() -> Path:
    """Where screenshots go: the user's Downloads folder if it exists, else `screenshots` in
    ono99's config directory, made (private) when needed; the current directory if even that
    cannot be made."""
    from platformdirs import user_downloads_path

    from ono99tui.user_settings import config_dir

    downloads = user_downloads_path()
    if downloads.is_dir():
        return downloads
    folder = config_dir() / "screenshots"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return Path.cwd()
    return folder


def _order_right_to_left_unless_the_terminal_does() -> None:
    """Urdu and Pashto: shape and order the lines here (ono99tui/ui/rtl.py) unless the
    player said the terminal does it (ONO99_RTL=terminal, or "rtl" in settings.json)."""
    from ono99tui.ui.rtl import order_right_to_left, rtl_mode
    from ono99tui.user_settings import ConfigError, load_settings

    try:
        saved = load_settings().rtl
    except ConfigError:
        saved = ""
    if rtl_mode(saved) == "app":
        order_right_to_left()


class TerminalApp(SessionApp):
    """The app's terminal side (see the module docstring). `ascii_glyphs=None` detects
    ASCII mode from the locale; `sixteen_colours=None` picks the 16-colour theme when the
    terminal reports no more than 16 colours (tests pin both for repeatable snapshots)."""

    TITLE = "ONO 99"
    # Focus you can see in any terminal, on every screen. A whole path: a relative one
    # would be read beside each subclass's own module.
    CSS_PATH = str(Path(__file__).with_name("focus.tcss"))
    # ASCII mode (the app has class -ascii): Textual's own widgets must not draw box or
    # block characters either. The app's screens and widgets carry their own -ascii rules.
    CSS = """
    .-ascii FooterKey.-command-palette { border-left: ascii $foreground 20%; }
    .-ascii Toast.-information { border-left: ascii $success; }
    .-ascii Toast.-warning { border-left: ascii $warning; }
    .-ascii Toast.-error { border-left: ascii $error; }
    .-ascii VerticalScroll { scrollbar-size-vertical: 0; }
    .-ascii Button { border: ascii $foreground 40%; }
    /* Notifications at the top right, under the title row: over the log, never over the
       hand, its hint line, the total or the prompt (at 80x24 the log pane is 31 wide). */
    ToastRack { dock: top; align: right top; margin-top: 1; margin-bottom: 0;
                max-height: 50%; overflow-y: hidden; }
    Toast { width: 31; max-width: 100%; margin-top: 0; padding: 0 1; }
    /* At the table, inside the log's frame (under its title row, off its right edge):
       the frame and its title stay in sight. The log's inside is 29 cells at 80 columns. */
    TableScreen ToastRack { margin-top: 2; }
    TableScreen Toast { width: 29; margin-right: 1; }
    /* Under 80 columns there is no log: over the seats, on the left, rather than the total. */
    TableScreen.-narrow ToastRack { margin-top: 1; }
    TableScreen.-narrow ToastHolder { align-horizontal: left; }
    TableScreen.-narrow Toast { width: 50%; margin-right: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Screens show their own "q" and "?" in the Footer; these work everywhere.
        Binding("ctrl+q", "quit", _("Quit"), priority=True, show=False),
        Binding("f1", "rules", _("Rules"), show=False),
        Binding("f2", "toggle_ascii", _("ASCII"), show=False),
        Binding("ctrl+l", "redraw", _("Redraw"), show=False),
        # Textual's own palette key, in the language spoken (Textual adds an English one
        # unless the app has its own: the Footer shows it as "^p palette").
        Binding("ctrl+p", "command_palette", _("palette"), show=False, priority=True,
                tooltip=_("Open the command palette")),
    ]

    def __init__(self, *, ascii_glyphs: bool | None = None,
                 sixteen_colours: bool | None = None) -> None:
        # Before anything is measured: Bengali and Kannada vowel signs take a cell, as in
        # the terminal (ono99tui/ui/cell_widths.py).
        agree_with_terminal()
        if i18n.is_right_to_left():
            _order_right_to_left_unless_the_terminal_does()
        super().__init__()
        self._sixteen_colours = sixteen_colours
        self.terminal_title = ""
        self.set_reactive(
            TerminalApp.glyphs,
            glyphs_for(detect_ascii() if ascii_glyphs is None else ascii_glyphs))
        self.register_theme(SIXTEEN_COLOUR_THEME)
        self.register_theme(HIGH_CONTRAST_THEME)

    def get_key_display(self, binding: Binding) -> str:
        """How the Footer names a key: Textual's way, with plain-ASCII arrows in ASCII mode."""
        display = super().get_key_display(binding)
        return display.translate(ASCII_KEY_NAMES) if self.glyphs.ascii else display

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, but on Linux one that exits when the terminal goes away and
        writes only the cells that change (`ono99tui.ui.drivers.diffing`)."""
        from textual.drivers.linux_driver import LinuxDriver

        driver_class = super().get_driver_class()
        return DiffingDriver if driver_class is LinuxDriver else driver_class

    def on_mount(self) -> None:
        self.set_class(self.glyphs.ascii, "-ascii")
        sixteen = self._sixteen_colours
        if sixteen is None:
            sixteen = self.console.color_system in ("standard", "windows")
        if asked_by_environment(HIGH_CONTRAST_ENV):
            self.theme = HIGH_CONTRAST_THEME.name
        elif sixteen:
            self.theme = SIXTEEN_COLOUR_THEME.name
        # Once the screens and the table are built, keep the collector off them: a full
        # collection of a running app took 16-35 ms, a stall every few seconds of play (and,
        # in `ono99 host`, a late view for every seat). See ono99tui/gc_freeze.py.
        self.set_timer(SETTLE_SECONDS, freeze_startup_objects)

    def on_unmount(self) -> None:
        gc.unfreeze()  # the process may go on (a test run): what dies now can be reclaimed

    def set_terminal_title(self, title: str) -> None:
        """Set the terminal window's title (an OSC 2 sequence; nothing when headless)."""
        self.terminal_title = title
        if not self.is_headless and self._driver is not None:
            self._driver.write(f"\x1b]2;{title}\x07")

    def _terminal_gone(self) -> bool:
        """Whether the driver has noticed the terminal go away (the hang-up may not have
        reached the app's handler yet)."""
        driver = self._driver
        return isinstance(driver, HangupReporter) and driver.hung_up

    def watch_glyphs(self, glyphs: Glyphs) -> None:
        self.set_class(glyphs.ascii, "-ascii")
        self.glyphs_changed.publish(glyphs)

    def action_toggle_ascii(self) -> None:
        """Switch between Unicode and ASCII-only glyphs."""
        self.glyphs = glyphs_for(not self.glyphs.ascii)
        self.notify(_("ASCII glyphs") if self.glyphs.ascii else _("Unicode glyphs"), timeout=2)

    def choose_language(self, code: str) -> None:
        """Remember `code` as the language to play in from the next start of ono99 on
        (`--lang` still wins); said in that language."""
        from ono99tui.user_settings import ConfigError, load_settings, save_settings

        previous = i18n.current_language()
        i18n.use_language(code)
        try:
            save_settings(replace(load_settings(), language=code))
            text = _("{language} from the next start of ono99 on.").format(
                language=i18n.LANGUAGES[code])
            severity: Literal["information", "warning"] = "information"
        except ConfigError as error:
            text = _("Not remembered: {error}").format(error=error)
            severity = "warning"
        i18n.use_language(previous)
        self.notify(text, timeout=6, severity=severity, markup=False)

    def action_rules(self) -> None:
        """Show the rules of this table's preset and options."""
        from ono99tui.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_redraw(self) -> None:
        """Draw the whole screen again, as terminal programs do on Ctrl+L: the app writes only
        what changes, so a terminal cleared or scribbled on from outside stays wrong until
        then."""
        driver = self._driver
        if isinstance(driver, ScreenDiffing):
            driver.forget_screen()
        self.screen.refresh()

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Textual's screenshot (the palette's "Screenshot"), saved where it can be: Textual
        writes into the Downloads folder and only said "Failed to save screenshot" where
        there is none (a server, an SSH door's user). See `screenshot_directory`."""
        if path is None:
            path = str(screenshot_directory())
        return super().deliver_screenshot(filename, path, time_format)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            _("ASCII glyphs"),
            _("Switch between Unicode and plain ASCII characters"),
            self.action_toggle_ascii,
        )
        yield SystemCommand(
            _("Rules"), _("The rules of this table's preset and options"), self.action_rules
        )
        for code, name in i18n.LANGUAGES.items():
            # "Language: বাংলা": each language named in itself, findable by "language" in
            # the language in use and by its own name.
            yield SystemCommand(
                _("Language: {language}").format(language=name),
                _("Play in {language} from the next start on (remembered)").format(
                    language=name),
                lambda code=code: self.choose_language(code),
            )
