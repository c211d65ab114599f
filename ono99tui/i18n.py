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
from pathlib import Path

DOMAIN = "ono99"
LOCALE_DIR = Path(__file__).parent / "locale"

_translation: gettext.NullTranslations = gettext.NullTranslations()


def use_language(code: str | None) -> bool:
    """Translate from now on into `code` (e.g. "bn"); None or "en" is English.

    Returns whether a catalog for `code` was found (English always counts as found).
    """
    global _translation
    if code is None or code == "en":
        _translation = gettext.NullTranslations()
        return True
    try:
        _translation = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code])
    except OSError:
        _translation = gettext.NullTranslations()
        return False
    return True


def _(message: str) -> str:
    """`message` in the chosen language (the English itself where no translation exists)."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message that agrees with `count`, in the chosen language."""
    return _translation.ngettext(singular, plural, count)
