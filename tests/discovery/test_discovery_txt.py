"""TableInfo <-> TXT record: every field survives DNS encoding, bad records are typed errors."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st
from zeroconf import ServiceInfo

from netproto.lan.discovery import (
    MAX_TEXT_LENGTH,
    SERVICE_TYPE,
    InvalidTableInfo,
    MalformedAdvertisement,
    TableInfo,
    TableState,
)

SAMPLE = TableInfo(
    protocol_version=3,
    name="Kitchen table",
    host_player="Ann",
    rules="classic",
    seats_taken=2,
    seats_total=4,
    state=TableState.PLAYING,
    password_required=True,
    port=9099,
    addresses=("198.18.0.1",),
    ssh_port=2222,
)


def through_dns(properties: dict[str, str] | dict[bytes, bytes | None]) -> dict[bytes, bytes | None]:
    """Encode properties as TXT wire bytes with zeroconf and parse them back, as a browser does."""
    encoded = ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", properties=properties)
    decoded = ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", properties=encoded.text)
    return decoded.properties


def test_txt_record_carries_every_field() -> None:
    properties = through_dns(SAMPLE.txt_properties())

    assert properties == {
        b"txtvers": b"1",
        b"proto": b"3",
        b"table": b"Kitchen table",
        b"host": b"Ann",
        b"rules": b"classic",
        b"seats": b"2/4",
        b"state": b"playing",
        b"pw": b"1",
        b"ssh": b"2222",
    }
    assert TableInfo.from_txt(properties, port=9099, addresses=["198.18.0.1"]) == SAMPLE


def test_ssh_port_is_optional() -> None:
    without_ssh = dataclasses.replace(SAMPLE, ssh_port=None, password_required=False)

    properties = through_dns(without_ssh.txt_properties())

    assert b"ssh" not in properties
    assert properties[b"pw"] == b"0"
    assert TableInfo.from_txt(properties, 9099, ["198.18.0.1"]) == without_ssh


def test_the_web_door_port_travels_in_the_web_key() -> None:
    with_web = dataclasses.replace(SAMPLE, web_port=8099)

    properties = through_dns(with_web.txt_properties())

    assert properties[b"web"] == b"8099"
    assert TableInfo.from_txt(properties, 9099, ["198.18.0.1"]) == with_web
    with pytest.raises(InvalidTableInfo, match="web_port"):
        dataclasses.replace(SAMPLE, web_port=70000)


text = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
    min_size=1,
    max_size=MAX_TEXT_LENGTH,
).filter(str.strip)


@given(
    name=text,
    host_player=text,
    rules=text,
    seats=st.integers(1, 64).flatmap(lambda total: st.tuples(st.integers(0, total), st.just(total))),
    state=st.sampled_from(TableState),
    password_required=st.booleans(),
    port=st.integers(1, 65535),
    ssh_port=st.none() | st.integers(1, 65535),
)
def test_any_valid_table_round_trips_through_dns(
    name: str,
    host_player: str,
    rules: str,
    seats: tuple[int, int],
    state: TableState,
    password_required: bool,
    port: int,
    ssh_port: int | None,
) -> None:
    info = TableInfo(
        protocol_version=1,
        name=name,
        host_player=host_player,
        rules=rules,
        seats_taken=seats[0],
        seats_total=seats[1],
        state=state,
        password_required=password_required,
        port=port,
        addresses=("127.0.0.1",),
        ssh_port=ssh_port,
    )

    assert TableInfo.from_txt(through_dns(info.txt_properties()), port, ["127.0.0.1"]) == info


@pytest.mark.parametrize(
    ("changes", "complaint"),
    [
        ({"name": ""}, "name must be a non-empty string"),
        ({"name": "   "}, "name must be a non-empty string"),
        ({"host_player": "x" * (MAX_TEXT_LENGTH + 1)}, "at most"),
        ({"name": "evil\x1b[2J"}, "unprintable"),
        ({"rules": "rtl\u202eoverride"}, "unprintable"),
        ({"seats_total": 0}, "seats_total"),
        ({"seats_taken": 5}, "seats_taken"),
        ({"seats_taken": -1}, "seats_taken"),
        ({"port": 0}, "port"),
        ({"port": 70000}, "port"),
        ({"ssh_port": 0}, "ssh_port"),
        ({"addresses": ("not-an-ip",)}, "IPv4"),
        ({"protocol_version": -1}, "protocol version"),
        ({"seats_total": "4"}, "seats_total must be an integer"),
        ({"seats_taken": True}, "seats_taken must be an integer"),
        ({"password_required": "no"}, "password_required"),
        ({"port": 9099.0}, "port"),
    ],
)
def test_invalid_table_info_is_refused(changes: dict[str, object], complaint: str) -> None:
    with pytest.raises(InvalidTableInfo, match=complaint):
        dataclasses.replace(SAMPLE, **changes)


def test_unknown_state_is_refused() -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(SAMPLE, state="abandoned")


@pytest.mark.parametrize(
    ("edit", "complaint"),
    [
        (lambda txt: txt.pop(b"table"), "lacks 'table'"),
        (lambda txt: txt.update({b"txtvers": b"2"}), "TXT version"),
        (lambda txt: txt.update({b"seats": b"two of four"}), "TAKEN/TOTAL"),
        (lambda txt: txt.update({b"seats": b"5/4"}), "seats_taken"),
        (lambda txt: txt.update({b"pw": b"maybe"}), "pw"),
        (lambda txt: txt.update({b"state": b"sleeping"}), "state"),
        (lambda txt: txt.update({b"proto": b" 1"}), "proto must be a number"),
        (lambda txt: txt.update({b"ssh": b"0x16"}), "ssh must be a number"),
        (lambda txt: txt.update({b"table": b"\xff\xfe"}), "not valid text"),
        (lambda txt: txt.update({b"host": b"\x1b]0;pwned\x07"}), "unprintable"),
        (lambda txt: txt.update({b"host": None}), "lacks 'host'"),
    ],
)
def test_malformed_txt_record_is_a_typed_error(edit, complaint: str) -> None:  # type: ignore[no-untyped-def]
    properties = dict(through_dns(SAMPLE.txt_properties()))
    edit(properties)

    with pytest.raises(MalformedAdvertisement, match=complaint):
        TableInfo.from_txt(through_dns(properties), 9099, ["198.18.0.1"])


def test_unknown_txt_keys_are_ignored() -> None:
    properties = {**SAMPLE.txt_properties(), "future": "feature"}

    assert TableInfo.from_txt(through_dns(properties), 9099, ["198.18.0.1"]) == SAMPLE


def test_port_from_the_srv_record_is_checked() -> None:
    with pytest.raises(MalformedAdvertisement, match="port"):
        TableInfo.from_txt(through_dns(SAMPLE.txt_properties()), 0, ["198.18.0.1"])
