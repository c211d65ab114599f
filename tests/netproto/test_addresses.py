"""Reading a typed `HOST[:PORT]` (every door uses the one parser) and reaching our own server."""

from __future__ import annotations

import pytest

from netproto.addresses import (
    Address,
    AddressError,
    WebAddress,
    WebAddressGiven,
    loopback_for,
    parse_address,
)
from netproto.wire.constants import DEFAULT_PORT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.168.1.20", Address("192.168.1.20", DEFAULT_PORT)),
        (" host.lan:4099 ", Address("host.lan", 4099)),
        ("[::1]:7000", Address("::1", 7000)),
        ("[::1]:9099", Address("::1", 9099)),
        ("[fe80::1]", Address("fe80::1", DEFAULT_PORT)),
        ("::1", Address("::1", DEFAULT_PORT)),
        ("2001:db8::7", Address("2001:db8::7", DEFAULT_PORT)),
        ("localhost:1", Address("localhost", 1)),
        ("localhost:65535", Address("localhost", 65535)),
        ("table-7.example.org", Address("table-7.example.org", DEFAULT_PORT)),
        ("h:09099", Address("h", 9099)),
    ],
)
def test_parse_address(text: str, expected: Address) -> None:
    assert parse_address(text) == expected


def test_the_default_port_is_the_callers() -> None:
    assert parse_address("h", default_port=4000) == Address("h", 4000)
    assert parse_address("[::1]", default_port=4000) == Address("::1", 4000)
    assert parse_address("h:5", default_port=4000) == Address("h", 5)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "type an address"),
        ("   ", "type an address"),
        ("host:0", "not a port"),
        ("host:65536", "not a port"),
        ("host:70000", "not a port"),
        ("host:-1", "not a port"),
        ("host:http", "not a port"),
        ("host:", "not a port"),
        ("host:²", "not a port"),
        ("host:١٢", "not a port"),  # Arabic-Indic digits: decimal, but not a port to type
        (":4099", "not a host"),
        ("[::1", "missing ']'"),
        ("[::1]9099", "expected ':PORT'"),
        ("[::1]:", "not a port"),
        ("[::1]:99999", "not a port"),
        ("[]:1", "not an IPv6"),
        ("[nothost]:1", "not an IPv6"),
        ("[127.0.0.1]:1", "not an IPv6"),
        ("a b:1", "not a host"),
        ("1:2:zz", "IPv6"),
        ("x" * 254, "not a host"),
    ],
)
def test_bad_addresses_say_why(text: str, reason: str) -> None:
    with pytest.raises(AddressError, match=reason):
        parse_address(text)


@pytest.mark.parametrize(
    ("text", "web"),
    [
        ("http://192.168.1.20:8099/", WebAddress("http", "192.168.1.20", 8099)),
        (" http://192.168.1.20:8099 ", WebAddress("http", "192.168.1.20", 8099)),
        ("HTTP://Table.lan/index?x=1", WebAddress("http", "table.lan", 80)),
        ("https://table.lan", WebAddress("https", "table.lan", 443)),
        ("http://[::1]:8099/ws", WebAddress("http", "::1", 8099)),
    ],
)
def test_a_web_address_is_refused_holding_the_web_server_it_names(
        text: str, web: WebAddress) -> None:
    # A web door's address pasted into `ono99 join` used to be read as a bare IPv6 address
    # ("write an IPv6 address as [ADDRESS]:PORT").
    with pytest.raises(WebAddressGiven, match="is a web address") as refused:
        parse_address(text)
    assert refused.value.web == web and "IPv6" not in str(refused.value)
    assert str(WebAddress("http", "::1", 8099)) == "http://[::1]:8099/"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("ssh://ana@table.lan:2222", "is a URL, not a table's address"),
        ("http://:8099/", "a web address with no host"),
        ("http://table.lan:99999/", "not a web address a browser could open"),
        ("http://[::1:8099/", "not a web address a browser could open"),
    ],
)
def test_other_urls_are_refused_in_words(text: str, reason: str) -> None:
    with pytest.raises(AddressError, match=reason) as refused:
        parse_address(text)
    assert not isinstance(refused.value, WebAddressGiven)


def test_an_address_error_is_a_value_error() -> None:
    # Callers that only know ValueError (argparse types, older code) still catch it.
    assert issubclass(AddressError, ValueError)


@pytest.mark.parametrize(
    "address",
    [Address("::1", 9), Address("h", 9), Address("192.168.1.20", 9099), Address("fe80::1", 1)],
)
def test_an_address_prints_back_to_itself(address: Address) -> None:
    assert parse_address(str(address)) == address


def test_address_prints_back() -> None:
    assert str(Address("::1", 9)) == "[::1]:9" and str(Address("h", 9)) == "h:9"


@pytest.mark.parametrize(
    ("bind", "reached_at"),
    [
        ("0.0.0.0", "127.0.0.1"),
        ("", "127.0.0.1"),  # an empty bind listens on every interface too
        ("::", "::1"),
        ("0::0", "::1"),
        ("198.18.0.1", "198.18.0.1"),
        ("127.0.0.2", "127.0.0.2"),
        ("fe80::1", "fe80::1"),
        ("myhost.lan", "myhost.lan"),
    ],
)
def test_loopback_for(bind: str, reached_at: str) -> None:
    assert loopback_for(bind) == reached_at
