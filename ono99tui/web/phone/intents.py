"""What a phone page may ask for, read strictly from its websocket's text frames.

A frame is one JSON object `{"t": KIND, …}`; `read_intent` gives a typed `Intent` or
raises `PageError` with a code the page shows in its own words (the page's message table
has "error.<code>"). Nothing here knows the table: whether an intent is allowed *now* is
the `PhoneSeat`'s question, which answers with a `PageError` too. A bad frame changes
nothing and is answered on that page only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from netproto.wire.chat_text import MAX_CHAT_TEXT
from netproto.wire.messages import MAX_TURN_SECONDS
from ono99tui import i18n
from ono99tui.bots import BOT_CHOICES
from ono99tui.game import ONO99_MODES, PRESET_NAMES, SCORING_MODES
from ono99tui.table_protocol import EMOTES
from ono99tui.words.rule_labels import RULE_SWITCHES

# Larger frames are refused before they are parsed (a phone's intent is a few bytes).
MAX_INTENT_BYTES = 4096
# Kinds that carry nothing but their kind.
PLAIN_KINDS = frozenset({"swap", "draw", "start", "rematch", "open_room", "take_seat",
                         "want_seat", "hint", "ping", "review"})
# The rule options the host's phone may set one by one (`{"t": "rule", "name", "value"}`),
# as the terminal's waiting room does: the choices, the numbers, the yes/no switches.
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": tuple(str(mode) for mode in SCORING_MODES),
    "ono99_card": tuple(str(mode) for mode in ONO99_MODES),
}
RULE_NUMBERS = frozenset({"target", "tokens"})
RULE_FLAGS = frozenset(switch.option for switch in RULE_SWITCHES)


class PageError(Exception):
    """A page's frame was refused: `code` for the page's message table, `detail` in words
    (the engine's reason for a card, say), `ref` the kind refused (None: unreadable)."""

    def __init__(self, code: str, detail: str = "", ref: str | None = None) -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.ref = ref

    def frame(self) -> dict[str, Any]:
        """The error as the page is sent it."""
        return {"t": "error", "code": self.code, "detail": self.detail, "ref": self.ref}


@dataclass(frozen=True, slots=True)
class Intent:
    """One thing the page asked for: `kind`, and its one argument (a hand position, a
    seat, a flag, a text, an emote's or preset's name) when it has one."""

    kind: str
    index: int | None = None
    flag: bool | None = None
    text: str | None = None
    # A rule's new value (`rule`: a choice, a number or a switch).
    value: str | int | bool | None = None


def _index(frame: dict[str, Any], kind: str, key: str = "i", high: int = 64) -> int:
    value = frame.get(key)
    if type(value) is not int or not 0 <= value < high:
        raise PageError("malformed", f"{key} must be a small whole number", kind)
    return value


def _flag(frame: dict[str, Any], kind: str) -> bool:
    value = frame.get("on")
    if type(value) is not bool:
        raise PageError("malformed", "on must be true or false", kind)
    return value


def read_intent(raw: str) -> Intent:
    """The intent in one text frame; raises PageError for anything else."""
    if len(raw) > MAX_INTENT_BYTES:
        raise PageError("too-large")
    try:
        frame = json.loads(raw)
    except ValueError:
        raise PageError("malformed", "not JSON") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
        raise PageError("malformed", "expected an object with a kind")
    kind = frame["t"]
    if kind in PLAIN_KINDS:
        return Intent(kind)
    if kind in ("play", "discard"):
        return Intent(kind, index=_index(frame, kind))
    if kind == "remove_bot":
        return Intent(kind, index=_index(frame, kind, "seat"))
    if kind in ("ready", "hints", "duplicate", "rated"):
        return Intent(kind, flag=_flag(frame, kind))
    if kind == "say":
        text = frame.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT_TEXT:
            raise PageError("bad-text", f"a line of 1 to {MAX_CHAT_TEXT} characters", kind)
        return Intent(kind, text=text)
    if kind == "emote":
        name = frame.get("name")
        if name not in EMOTES:
            raise PageError("malformed", "no such emote", kind)
        return Intent(kind, text=str(name))
    if kind == "preset":
        name = frame.get("name")
        if name not in PRESET_NAMES:
            raise PageError("malformed", "no such rules", kind)
        return Intent(kind, text=str(name))
    if kind == "lang":  # the page's menu: the door's sentences in this language from now on
        code = frame.get("code")
        if not isinstance(code, str) or code not in i18n.LANGUAGES:
            raise PageError("malformed", "no such language", kind)
        return Intent(kind, text=code)
    if kind in ("spectator_chat",):
        return Intent(kind, flag=_flag(frame, kind))
    if kind == "turn_time":  # whole seconds per move; 0: no clock
        return Intent(kind, index=_index(frame, kind, "seconds", int(MAX_TURN_SECONDS) + 1))
    if kind == "add_bot":  # of the level the host picked (none: the table's own)
        level = frame.get("level")
        if level is not None and level not in BOT_CHOICES:
            raise PageError("malformed", "no such bot level", kind)
        return Intent(kind, text=None if level is None else str(level))
    if kind == "rule":
        return _rule(frame)
    raise PageError("unknown", kind[:40], kind[:40])


def _rule(frame: dict[str, Any]) -> Intent:
    """One rule option and its new value, of the option's own type."""
    name, value = frame.get("name"), frame.get("value")
    if name in RULE_CHOICES:
        if value not in RULE_CHOICES[str(name)]:
            raise PageError("malformed", f"{name} must be one of "
                                         f"{', '.join(RULE_CHOICES[str(name)])}", "rule")
    elif name in RULE_NUMBERS:
        if type(value) is not int:
            raise PageError("malformed", f"{name} must be a whole number", "rule")
    elif name in RULE_FLAGS:
        if type(value) is not bool:
            raise PageError("malformed", f"{name} must be true or false", "rule")
    else:
        raise PageError("malformed", "no such rule option", "rule")
    return Intent("rule", text=str(name), value=value)
