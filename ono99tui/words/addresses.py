"""What is wrong with a typed table address, in the language in use.

`netproto.addresses` is game-agnostic and speaks English (its errors go to logs too); each
`AddressError` carries a `code` and the values it names, and this module words them for
the player: `ono99 join`/`bot` on the command line, the lobby's address field, line mode.
"""

from __future__ import annotations

from netproto.addresses import HIGHEST_PORT, LOWEST_PORT, AddressError
from ono99tui.i18n import _


def address_problem(error: AddressError) -> str:
    """What is wrong with the address, in a few words a player can act on (the English
    message itself for a code this module does not know)."""
    # Quoted as the English message quotes them: the player sees exactly what they typed.
    values = {name: repr(error.values.get(name, "")) for name in ("text", "host", "port")}
    values |= {"lowest": str(LOWEST_PORT), "highest": str(HIGHEST_PORT)}
    match error.code:
        case "empty":
            return _("type an address: HOST or HOST:PORT")
        case "web_address":
            return _("{text} is a web address (for a browser), not a table's address: "
                     "type HOST:PORT").format(**values)
        case "other_url":
            return _("{text} is a URL, not a table's address: type HOST:PORT").format(**values)
        case "bad_web_address":
            return _("{text}: not a web address a browser could open").format(**values)
        case "web_address_without_host":
            return _("{text}: a web address with no host").format(**values)
        case "no_closing_bracket":
            return _("{text}: missing ']' after the IPv6 address").format(**values)
        case "junk_after_bracket":
            return _("{text}: expected ':PORT' after ']'").format(**values)
        case "not_ipv6":
            return _("{host} is not an IPv6 address").format(**values)
        case "bare_ipv6_with_port":
            return _("{text}: write an IPv6 address as [ADDRESS]:PORT").format(**values)
        case "bad_host":
            return _("{text}: not a host name or address").format(**values)
        case "bad_port":
            return _("{port} is not a port ({lowest} to {highest})").format(**values)
    return str(error)
