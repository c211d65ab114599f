"""Which network interfaces mDNS uses: the `--mdns-interface` option and its environment twin.

zeroconf listens and answers on every interface unless told otherwise; a table must only
be advertised where the player wants it, so every command resolves its interface list
here, in one order of precedence: the command-line value, then the environment variable
`ONO99_MDNS_INTERFACES`, then every non-loopback IPv4 interface of the machine (loopback
alone when the machine has no other).

An item of the list is an IPv4 address of this machine (`192.168.1.20`) or the name of an
interface (`eth0`, `wlan0`), which stands for its IPv4 addresses. This module only needs
`ifaddr` (a zeroconf dependency), so command modules can import it while building their
parser without pulling zeroconf in.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Iterable, Mapping, Sequence

import ifaddr

INTERFACES_ENV_VAR = "ONO99_MDNS_INTERFACES"
LOOPBACK_ADDRESS = "127.0.0.1"


class InterfaceError(ValueError):
    """An interface list names an interface or address this machine does not have."""


def add_mdns_interface_option(parser: argparse.ArgumentParser) -> None:
    """Add `--mdns-interface IF[,IF...]` to a command's parser (value in `args.mdns_interface`)."""
    parser.add_argument(
        "--mdns-interface",
        metavar="IF[,IF...]",
        default=None,
        help=(
            "interfaces (names or IPv4 addresses, comma separated) to advertise and browse on;"
            f" default: ${INTERFACES_ENV_VAR}, else every non-loopback IPv4 interface"
        ),
    )


def resolve_interfaces(
    cli_value: str | None,
    environ: Mapping[str, str] | None = None,
    adapters: Sequence[ifaddr.Adapter] | None = None,
) -> list[str]:
    """Return the IPv4 addresses mDNS must use, from the CLI value, the environment or the default.

    `environ` defaults to `os.environ` and `adapters` to the machine's interfaces; both are
    parameters so the choice can be tested without touching the machine's network.
    Raises `InterfaceError` for an unknown name, an address not on this machine, an IPv6
    address, or an empty list.
    """
    if environ is None:
        environ = os.environ
    if adapters is None:
        adapters = list(ifaddr.get_adapters())
    spec = cli_value if cli_value is not None else environ.get(INTERFACES_ENV_VAR)
    if spec is None or not spec.strip():
        if cli_value is not None:
            raise InterfaceError("--mdns-interface needs at least one interface")
        return default_interfaces(adapters)
    return _addresses_from_spec(spec, adapters)


def default_interfaces(adapters: Sequence[ifaddr.Adapter]) -> list[str]:
    """Every non-loopback IPv4 address; loopback alone when there is no other."""
    addresses = [
        address
        for address in _ipv4_addresses(adapters)
        if not ipaddress.IPv4Address(address).is_loopback
    ]
    return addresses or [LOOPBACK_ADDRESS]


def _addresses_from_spec(spec: str, adapters: Sequence[ifaddr.Adapter]) -> list[str]:
    known = set(_ipv4_addresses(adapters))
    chosen: list[str] = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        for address in _addresses_of_item(item, adapters, known):
            if address not in chosen:
                chosen.append(address)
    if not chosen:
        raise InterfaceError(f"no interface in {spec!r}")
    return chosen


def _addresses_of_item(
    item: str, adapters: Sequence[ifaddr.Adapter], known: set[str]
) -> list[str]:
    try:
        address = ipaddress.ip_address(item)
    except ValueError:
        return _addresses_of_named_interface(item, adapters)
    if address.version != 4:
        raise InterfaceError(f"{item}: only IPv4 addresses are supported for mDNS")
    if str(address) not in known:
        raise InterfaceError(
            f"{item} is not an address of this machine (have: {', '.join(sorted(known))})"
        )
    return [str(address)]


def _addresses_of_named_interface(name: str, adapters: Sequence[ifaddr.Adapter]) -> list[str]:
    for adapter in adapters:
        if name in (adapter.name, adapter.nice_name):
            addresses = list(_ipv4_addresses([adapter]))
            if not addresses:
                raise InterfaceError(f"interface {name} has no IPv4 address")
            return addresses
    names = sorted({str(adapter.nice_name) for adapter in adapters})
    raise InterfaceError(f"no interface named {name!r} (have: {', '.join(names)})")


def _ipv4_addresses(adapters: Iterable[ifaddr.Adapter]) -> Iterable[str]:
    for adapter in adapters:
        for ip in adapter.ips:
            if ip.is_IPv4:
                yield str(ip.ip)
