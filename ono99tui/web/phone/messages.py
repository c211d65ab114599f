"""The phone page's table of words (static/phone/messages.json), in the phone's language.

The table is written in English; its values are msgids of the one catalog
(tools/catalogs.py extracts them beside the code's strings), so the page is translated
with everything else. The door answers `GET /static/phone/messages.json` in the language
the page asks for: `?lang=CODE`, else the browser's Accept-Language, else the language the
door's process speaks, else English — and sets the table's `lang` and `dir` ("rtl" for
Urdu and Pashto: the page mirrors).
"""

from __future__ import annotations

import gettext
import json
from functools import cache
from pathlib import Path
from typing import Any

from ono99tui import i18n

PHONE_MESSAGES = "phone/messages.json"
# The table's keys that are not words.
NOT_WORDS = frozenset({"lang", "dir", "plural"})
# `plural` gives the form for each count below this; a larger count takes the form of
# PLURAL_SPAN // 2 + count % 100 (every catalog's rule reads n % 10 and n % 100 beyond 1).
PLURAL_SPAN = 200


@cache
def _english(path: Path) -> dict[str, str | list[str]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {str(key): [str(form) for form in value] if isinstance(value, list) else str(value)
            for key, value in data.items()}


def plural_forms(catalog: gettext.NullTranslations, singular: str, plural: str,
                 form_of: list[int]) -> list[str]:
    """The translations of a plural entry, one per form of the language, in the order of
    its rule (`form_of`: the form of each count)."""
    forms: dict[int, str] = {}
    for count, form in enumerate(form_of):
        forms.setdefault(form, catalog.ngettext(singular, plural, count))
    return [forms[form] for form in sorted(forms)]


def phone_messages(path: Path, language: str) -> dict[str, Any]:
    """The table at `path` with its words in `language` (English where a string is
    missing). An entry written as [singular, plural] (its text counts `{count}`) comes as
    the language's forms, and `plural` says which form each count takes: the page picks
    one as the terminal's ngettext does."""
    catalog = i18n.translator(language)
    rule = getattr(catalog, "plural", None)  # English (no catalog): 1 is singular
    form_of = [rule(count) if rule is not None else int(count != 1)
               for count in range(PLURAL_SPAN)]
    words: dict[str, Any] = {}
    for key, value in _english(path).items():
        if key in NOT_WORDS:
            words[key] = value
        elif isinstance(value, list):
            words[key] = plural_forms(catalog, value[0], value[1], form_of)
        else:
            words[key] = catalog.gettext(value)
    words["lang"] = language
    words["dir"] = "rtl" if language in i18n.RIGHT_TO_LEFT else "ltr"
    words["plural"] = form_of
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
