"""The one door every player-facing string goes through, so the languages issue can translate.

Front ends wrap what a player reads in `_("…")` (and `ngettext` where a count changes the
words), whole sentences with named placeholders (`_("{name} played {card}.").format(…)`), never
sentences glued from pieces: word order differs between languages. Player names, card values
and text from the server are placeholders' values, never looked up.

Catalogs are standard gettext `.mo` files under `ono99tui/locale/<lang>/LC_MESSAGES/ono99.mo`;
`use_language` switches the whole process. A language without a catalog, or a string missing
from one, falls back to the English text itself — never to a key.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "ono99"
LOCALE_DIR = Path(__file__).parent / "locale"

# The languages ono99 speaks, each named in itself (the palette and `--lang`'s help list them).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "be": "Беларуская",
    "bn": "বাংলা",
    "kn": "ಕನ್ನಡ",
    "ur": "اردو",
    "ps": "پښتو",
}
# Written right to left: the TUI orders and shapes their text (ono99tui/ui/rtl.py).
RIGHT_TO_LEFT = frozenset({"ur", "ps"})
# The variables gettext itself reads, in the order it reads them.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


class TaskLanguage:
    """The language of some asyncio tasks (a phone's seat in the web door: the task that
    serves its page and the task that reads its table), over the process's: the tasks that
    share it speak what it is set to, from the moment it is set (the page's menu)."""

    def __init__(self, code: str) -> None:
        self.code = "en"
        self.translation: gettext.NullTranslations = gettext.NullTranslations()
        self.set(code)

    def set(self, code: str) -> None:
        """Speak `code` from now on in every task that shares this language."""
        self.code = code
        self.translation = translator(code)


# A language for one asyncio task and the tasks it starts (the web door's phone seats, each
# in its phone's language), over the process's; None: the process's.
_task_language: ContextVar[TaskLanguage | None] = ContextVar("ono99_task_language",
                                                             default=None)


class UnknownLanguage(ValueError):
    """A language code ono99 has no catalog for; the message lists the known ones."""


def known_language(code: str) -> str:
    """`code` checked against LANGUAGES ("be", "bn_IN" -> "bn"); UnknownLanguage otherwise."""
    short = code.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    if short not in LANGUAGES:
        raise UnknownLanguage(
            f"unknown language {code!r}; ono99 speaks " + ", ".join(LANGUAGES))
    return short


def language_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The first language of LANGUAGE / LC_ALL / LC_MESSAGES / LANG that ono99 speaks.

    The first variable that is set decides, as in gettext, except that LANGUAGE's list
    ("ur:en") is searched; "C" and "POSIX" mean English.
    """
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for candidate in value.split(":") if variable == "LANGUAGE" else [value]:
            if candidate in ("C", "POSIX") or candidate.startswith("C."):
                return "en"
            try:
                return known_language(candidate)
            except UnknownLanguage:
                continue
        if variable != "LANGUAGE":
            return None
    return None


def choose_language(flag: str | None, saved: str | None,
                    environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: `--lang`, else the saved choice, else the locale, else English.

    `flag` must be a known language (UnknownLanguage otherwise: the player typed it); a
    saved choice ono99 no longer knows is passed over.
    """
    if flag:
        return known_language(flag)
    if saved:
        try:
            return known_language(saved)
        except UnknownLanguage:
            pass
    return language_from_environment(environ) or "en"


def current_language() -> str:
    """The code of the language in use ("en" by default)."""
    return _language


def is_right_to_left() -> bool:
    """Whether the language in use is written right to left."""
    return _language in RIGHT_TO_LEFT


def use_language(code: str | None) -> bool:
    """Translate from now on into `code` (e.g. "bn"); None or "en" is English.

    Returns whether a catalog for `code` was found (English always counts as found).
    """
    global _translation, _language
    if code is None or code == "en":
        _translation, _language = gettext.NullTranslations(), "en"
        return True
    try:
        _translation = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code])
    except OSError:
        _translation, _language = gettext.NullTranslations(), "en"
        return False
    _language = code
    return True


def translator(code: str) -> gettext.NullTranslations:
    """The catalog of `code` without switching the process to it (the web door answers
    each phone in its own language); English where there is none."""
    if code == "en":
        return gettext.NullTranslations()
    try:
        return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code])
    except OSError:
        return gettext.NullTranslations()


def language_from_accept(header: str) -> str | None:
    """The first language of an HTTP Accept-Language header that ono99 speaks ("ur-PK,ur;
    q=0.9,en;q=0.8" -> "ur"), by the header's own order of preference."""
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if tag:
            weighted.append((-weight, position, tag))
    for _weight, _position, tag in sorted(weighted):
        try:
            return known_language(tag)
        except UnknownLanguage:
            continue
    return None


def speak_in_this_task(language: str | TaskLanguage) -> TaskLanguage:
    """From now on, in the current asyncio task and the tasks it starts, speak `language`
    (a code, or a `TaskLanguage` other tasks share); the rest of the process keeps its
    language. Returns the task's language, which `TaskLanguage.set` changes for all of
    them at once."""
    shared = TaskLanguage(language) if isinstance(language, str) else language
    _task_language.set(shared)
    return shared


def task_language() -> TaskLanguage | None:
    """The language the current task speaks over the process's (None: the process's)."""
    return _task_language.get()


def _current() -> gettext.NullTranslations:
    shared = _task_language.get()
    return shared.translation if shared is not None else _translation


def _(message: str) -> str:
    """`message` in the chosen language (the English itself where no translation exists)."""
    # "" would be the catalog's header (gettext keeps its metadata under the empty id).
    return _current().gettext(message) if message else message



def N_(message: str) -> str:
    """Mark `message` for the catalog without translating it yet: for constants built at
    import time, before a language is chosen; the code shows `_(constant)` later."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that agrees with `count`, in the chosen language."""
    return _current().ngettext(singular, plural, count)
