"""Chat text: what a peer says is made inert before anyone else sees it.

A chat line may be anything a keyboard (or a hostile client) can produce; every screen it
reaches must show it as characters and nothing else. `clean_chat_text` applies the rules
of player names (`netproto.wire.names`: escape sequences, controls, format characters such as
bidi overrides, isolates and zero-width joiners, surrogates, private-use and unassigned
code points all go), and for a line of talk besides:

- any line break, tab or other space becomes one space, so the text is one line;
- variation selectors go (an emoji presentation selector makes terminals draw a
  character two cells wide that width tables count as one, which shifts the rest of the
  row), and at most `MAX_COMBINING` combining marks follow a character (stacked marks
  paint over the lines above and below);
- the result is 1 to `MAX_CHAT_TEXT` characters, or `EmptyChat`.

Square brackets stay, as in names: a UI renders chat as plain text, never as markup
(docs/PROTOCOL.md §6). The table cleans before it sends, and a client may clean again.

`clean_line` is the same cleaning for any other text a peer shows on someone's screen
(seat names, refusal reasons, table names): `netproto.wire.messages` applies it to every such
field as it decodes it, so a client never trusts the server it talks to.
"""

from __future__ import annotations

import functools
import unicodedata

from netproto.wire.errors import BadMessage
from netproto.wire.names import DROPPED_CATEGORIES, ESCAPE_SEQUENCE

# A chat line, in characters: what `say.text` may carry and `chat.text` does carry
# (defined here, not in netproto.wire.messages, because messages cleans with this module).
MAX_CHAT_TEXT = 200

# Combining marks kept after one base character (enough for every real script's accents).
MAX_COMBINING = 2
_COMBINING_CATEGORIES = frozenset({"Mn", "Me"})


class EmptyChat(BadMessage):
    """Nothing printable is left of a chat line."""

    code = "empty-chat"


def _is_variation_selector(char: str) -> bool:
    point = ord(char)
    return 0xFE00 <= point <= 0xFE0F or 0xE0100 <= point <= 0xE01EF


def clean_chat_text(raw: str) -> str:
    """The printable one-line form of a chat line; raises EmptyChat if nothing is left.

    The result never holds a control, format, escape or line-breaking character, never
    more than `MAX_COMBINING` combining marks in a row, has at most `MAX_CHAT_TEXT`
    characters (a longer line is cut, at a character) and is NFC; cleaning it again
    changes nothing.
    """
    line = clean_line(raw, MAX_CHAT_TEXT)
    if not line:
        raise EmptyChat("a chat line needs at least one printable character")
    return line


def clean_line(raw: str, limit: int) -> str:
    """`raw` made inert by the chat rules, cut to at most `limit` characters; "" when
    nothing printable is left (the caller decides what stands in for it).

    Ordinary text (letters of any script, accents, CJK, emoji, single spaces) comes back
    unchanged; cleaning the result again changes nothing.
    """
    # Fast path: printable ASCII with single inner spaces is already clean (the lobby's
    # seat names, decoded by every client for every lobby, are nearly always that).
    if (raw.isascii() and raw.isprintable() and len(raw) <= limit and "  " not in raw
            and raw[:1] != " " and raw[-1:] != " "):
        return raw
    return _clean_until_stable(raw, limit)


# The same names (accented, CJK, emoji) come back in every lobby: remember the last few.
@functools.lru_cache(maxsize=256)
def _clean_until_stable(raw: str, limit: int) -> str:
    line = raw
    # Removing a character can let its neighbours compose (NFC) or bring marks together:
    # clean until nothing changes (twice in practice; the bound only guards the loop).
    for _ in range(4):
        cleaned = _clean_once(line, limit)
        if cleaned == line:
            break
        line = cleaned
    return line


def _clean_once(text: str, limit: int) -> str:
    text = unicodedata.normalize("NFC", ESCAPE_SEQUENCE.sub("", text))
    kept: list[str] = []
    marks = 0
    for char in text:
        if char.isspace():
            kept.append(" ")
            marks = 0
            continue
        category = unicodedata.category(char)
        if category in DROPPED_CATEGORIES or _is_variation_selector(char):
            continue
        if category in _COMBINING_CATEGORIES:
            if marks >= MAX_COMBINING or not kept or kept[-1] == " ":
                continue  # a mark with nothing (or enough) under it
            marks += 1
        else:
            marks = 0
        kept.append(char)
    return " ".join("".join(kept).split())[:limit].rstrip()
