"""Table talk on the player's side: the emote keys, who is muted, and the lines heard.

The table (`ono99tui.host.chat`) knows the emotes by name; here each has a key at the
table (5 to 9, beside the card keys 1 to 4). Muting is this player's own business: the
names muted live in the session and nothing about them goes to the table. Everything that
came over the network is cleaned again here (`clean_chat_text`, the table's own cleaner)
before any front end shows it, as plain text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from netproto.wire.chat_text import EmptyChat, clean_chat_text
from netproto.wire.messages import Chat
from ono99tui.client.story import SaidItem
from ono99tui.i18n import _
from ono99tui.table_protocol import EMOTES

# (key, emote name), in the order the hint lists them.
EMOTE_KEYS: tuple[tuple[str, str], ...] = (
    ("5", "hello"), ("6", "nice-play"), ("7", "oops"), ("8", "your-turn"), ("9", "good-game"),
)
# Names heard that the mute list offers besides the seats: the most recent this many (a
# stream of spectators under new names must not grow the list without end).
MAX_HEARD = 32


def emote_hint() -> str:
    """The emote keys in words, for the chat prompt and the help."""
    return " ".join(f"{key} {_(EMOTES[name])}" for key, name in EMOTE_KEYS)


@dataclass
class Talk:
    """This session's talk: the names muted, and the names heard (to offer for muting)."""

    muted: set[str] = field(default_factory=set)
    heard: list[str] = field(default_factory=list)

    def said(self, chat: Chat) -> SaidItem | None:
        """What `chat` says, cleaned, or None when its sender is muted or nothing printable
        is left of it."""
        try:
            name = clean_chat_text(chat.name)
            # An emote the table knows is shown in this player's language (the table sends
            # its English words); any other text as it came, cleaned.
            text = (_(EMOTES[chat.emote]) if chat.emote in EMOTES
                    else clean_chat_text(chat.text))
        except EmptyChat:
            return None
        if name in self.heard:
            self.heard.remove(name)
        self.heard.append(name)
        del self.heard[:-MAX_HEARD]
        if name in self.muted:
            return None
        return SaidItem(name, text)

    def set_muted(self, names: set[str]) -> None:
        """Mute exactly `names` from now on."""
        self.muted = set(names)
