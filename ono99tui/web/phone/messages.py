"""The phone page's table of words (static/phone/messages.json), in the phone's language.

The table is written in English; its values are msgids of the one catalog
(tools/catalogs.py extracts them beside the code's strings), so the page is translated
with everything else. The door answers `GET /static/phone/messages.json` in the language
the page asks for: `?lang=CODE`, else the browser's Accept-Language, else the language the
door's process speaks, else English — and sets the table's `lang` and `dir` ("rtl" for
Urdu and Pashto: the page mirrors).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ono99tui import i18n

PHONE_MESSAGES = "phone/messages.json"
# The table's keys that are not words.
NOT_WORDS = frozenset({"lang", "dir"})


@cache
def _english(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(key): str(value) for key, value in data.items()}


def phone_messages(path: Path, language: str) -> dict[str, str]:
    """The table at `path` with its words in `language` (English where a string is
    missing)."""
    catalog = i18n.translator(language)
    words = {key: value if key in NOT_WORDS else catalog.gettext(value)
             for key, value in _english(path).items()}
    words["lang"] = language
    words["dir"] = "rtl" if language in i18n.RIGHT_TO_LEFT else "ltr"
    return words


def page_language(asked: str | None, accept_language: str) -> str:
    """The page's language: `asked` (the page's `?lang=`) if ono99 speaks it, else the
    browser's, else the process's."""
    if asked:
        try:
            return i18n.known_language(asked)
        except i18n.UnknownLanguage:
            pass
    return i18n.language_from_accept(accept_language) or i18n.current_language()
