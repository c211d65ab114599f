"""Choosing mDNS interfaces: CLI value, then ONO99_MDNS_INTERFACES, then non-loopback IPv4."""

from __future__ import annotations

import argparse

import ifaddr
import pytest

from netproto.lan.interfaces import (
    INTERFACES_ENV_VAR,
    InterfaceError,
    add_mdns_interface_option,
    resolve_interfaces,
)


def adapter(name: str, *addresses: str) -> ifaddr.Adapter:
    """A network interface as ifaddr describes one."""
    ips = [
        ifaddr.IP(address, 24, name) if ":" not in address else ifaddr.IP((address, 0, 0), 64, name)
        for address in addresses
    ]
    return ifaddr.Adapter(name, name, ips)


MACHINE = [
    adapter("lo", "127.0.0.1", "::1"),
    adapter("eth0", "192.0.2.10", "fe80::1"),
    adapter("wlan0", "198.18.5.7"),
    adapter("tun0"),
]


def test_default_is_every_non_loopback_ipv4_address() -> None:
    assert resolve_interfaces(None, environ={}, adapters=MACHINE) == ["192.0.2.10", "198.18.5.7"]


def test_default_falls_back_to_loopback_on_a_machine_without_network() -> None:
    assert resolve_interfaces(None, environ={}, adapters=MACHINE[:1]) == ["127.0.0.1"]


def test_environment_variable_overrides_the_default() -> None:
    environ = {INTERFACES_ENV_VAR: "127.0.0.1"}

    assert resolve_interfaces(None, environ=environ, adapters=MACHINE) == ["127.0.0.1"]


def test_command_line_overrides_the_environment() -> None:
    environ = {INTERFACES_ENV_VAR: "127.0.0.1"}

    assert resolve_interfaces("wlan0", environ=environ, adapters=MACHINE) == ["198.18.5.7"]


def test_names_and_addresses_mix_and_duplicates_collapse() -> None:
    chosen = resolve_interfaces(" eth0 , 198.18.5.7,192.0.2.10,", environ={}, adapters=MACHINE)

    assert chosen == ["192.0.2.10", "198.18.5.7"]


@pytest.mark.parametrize(
    ("value", "complaint"),
    [
        ("eth9", "no interface named 'eth9'"),
        ("10.1.2.3", "not an address of this machine"),
        ("::1", "only IPv4"),
        ("tun0", "no IPv4 address"),
        ("", "at least one interface"),
        (",", "no interface in"),
    ],
)
def test_bad_choice_is_a_clear_error(value: str, complaint: str) -> None:
    with pytest.raises(InterfaceError, match=complaint):
        resolve_interfaces(value, environ={}, adapters=MACHINE)


def test_this_machine_has_loopback_by_name() -> None:
    assert resolve_interfaces("lo", environ={}) == ["127.0.0.1"]


def test_option_is_added_to_a_parser() -> None:
    parser = argparse.ArgumentParser()
    add_mdns_interface_option(parser)

    assert parser.parse_args(["--mdns-interface", "lo,eth0"]).mdns_interface == "lo,eth0"
    assert parser.parse_args([]).mdns_interface is None
