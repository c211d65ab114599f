"""Player names: what a peer sends is cleaned before anyone else ever sees it.

Terminal escape sequences and every control, format (bidi overrides, zero-width joiners)
and separator character are removed, whitespace is collapsed, and the result must be 1 to
`MAX_NAME_LENGTH` characters. Square brackets are kept: netproto does not know about Rich,
so every UI must escape markup when it renders a name (the Textual app uses
`rich.markup.escape`). docs/PROTOCOL.md states this contract.
"""

from __future__ import annotations

import re
import unicodedata

from netproto.wire.errors import BadName

MAX_NAME_LENGTH = 24
# Longest raw name accepted at all, before cleaning (escape sequences may shrink a lot).
MAX_RAW_NAME_LENGTH = 256

# ECMA-48: CSI ... final byte, OSC/DCS/APC/PM/SOS ... ST or BEL, and two-byte ESC sequences.
ESCAPE_SEQUENCE = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]              # CSI
  | \x9b[0-?]*[ -/]*[@-~]                # 8-bit CSI
  | [\x1b][\]PX^_].*?(?:\x07|\x1b\\|$)   # OSC, DCS, SOS, PM, APC up to BEL or ST
  | [\x90\x9d\x98\x9e\x9f].*?(?:\x07|\x9c|$)
  | \x1b[ -/]*[0-~]                      # other ESC sequences (incl. ESC c reset)
    """,
    re.VERBOSE | re.DOTALL,
)
# C (control, format, surrogate, private use, unassigned) and Z (separators other than space).
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_name(raw: object) -> str:
    """Return the printable form of a requested player name, or raise BadName."""
    if not isinstance(raw, str):
        raise BadName("a name must be a string")
    if len(raw) > MAX_RAW_NAME_LENGTH:
        raise BadName(f"a name may have at most {MAX_NAME_LENGTH} characters")
    text = ESCAPE_SEQUENCE.sub("", unicodedata.normalize("NFC", raw))
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category in DROPPED_CATEGORIES:
            continue
        kept.append(" " if category == "Zs" else char)
    name = " ".join("".join(kept).split())
    if not name:
        raise BadName("a name needs at least one printable character")
    if len(name) > MAX_NAME_LENGTH:
        raise BadName(f"a name may have at most {MAX_NAME_LENGTH} characters")
    return name
