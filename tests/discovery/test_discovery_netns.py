"""Discovery across a real two-machine LAN: two network namespaces joined by a veth pair."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from discovery_helpers import (
    AdvertiserProcess,
    child_env,
    run_ono99_list,
    table_fields,
    tables_named,
    unique_table_name,
)
from netns_lan import NamespaceLan, netns_unavailable_reason

pytestmark = pytest.mark.netns

StartAdvertiser = Callable[..., Awaitable[AdvertiserProcess]]


@pytest.fixture
def lan() -> Iterator[NamespaceLan]:
    """A fresh namespace LAN, removed after the test whatever happens."""
    reason = netns_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    with NamespaceLan() as namespaces:
        yield namespaces


async def test_table_hosted_in_one_namespace_is_listed_in_the_other(
    lan: NamespaceLan, advertiser_process: StartAdvertiser
) -> None:
    name = unique_table_name()
    child = await advertiser_process(
        table_fields(name), interface=lan.host_address, netns=lan.host_ns
    )

    status, stdout, stderr = await run_ono99_list(
        "--json", "--timeout", "1.5", netns=lan.guest_ns, interface=lan.guest_address
    )

    assert status == 0, stderr
    # Nothing listens at the advertised port in the host's namespace: refused, not answering.
    assert json.loads(stdout) == [
        {"service_name": child.service_name, **table_fields(name), "addresses": [lan.host_address],
         "answering": False}
    ]


async def test_changes_travel_across_the_lan(
    lan: NamespaceLan, advertiser_process: StartAdvertiser
) -> None:
    name = unique_table_name()
    browse = await asyncio.create_subprocess_exec(
        *lan.exec_prefix(lan.guest_ns), sys.executable, "-m", "netproto.lan.discovery_cli",
        "browse", "--mdns-interface", lan.guest_address,
        stdout=asyncio.subprocess.PIPE, env=child_env(),
    )  # fmt: skip
    try:
        assert (await next_line(browse))["event"] == "browsing"
        child = await advertiser_process(
            table_fields(name), interface=lan.host_address, netns=lan.host_ns
        )
        added = await next_line(browse)
        assert (added["event"], added["table"]["seats_taken"]) == ("added", 1)

        await child.update(seats_taken=2)
        updated = await next_line(browse)
        assert (updated["event"], updated["table"]["seats_taken"]) == ("updated", 2)

        await child.stop("sigterm")
        removed = await next_line(browse)
        assert (removed["event"], removed["table"]["service_name"]) == (
            "removed",
            child.service_name,
        )
    finally:
        browse.kill()
        await browse.wait()


async def test_an_empty_lan_lists_no_tables(lan: NamespaceLan) -> None:
    as_json = await run_ono99_list(
        "--json", "--timeout", "0.5", netns=lan.guest_ns, interface=lan.guest_address
    )
    as_text = await run_ono99_list(
        "--timeout", "0.5", netns=lan.guest_ns, interface=lan.guest_address
    )

    assert as_json[:2] == (0, "[]\n")
    assert as_text[:2] == (0, "No tables found on 198.18.0.2 within 0.5 s.\n")


async def test_dig_reads_ptr_srv_txt_and_a_records(
    lan: NamespaceLan, advertiser_process: StartAdvertiser
) -> None:
    name = unique_table_name("LAN-table").replace(" ", "-")
    child = await advertiser_process(
        table_fields(name, port=9123), interface=lan.host_address, netns=lan.host_ns
    )
    instance = child.service_name.rstrip(".")

    ptr = dig(lan, "_ono99._tcp.local", "PTR")
    srv = dig(lan, instance, "SRV")
    txt = dig(lan, instance, "TXT")

    assert ("_ono99._tcp.local.", "PTR", f"{instance}.") in records(ptr)
    [(_, _, srv_data)] = [r for r in records(srv) if r[1] == "SRV"]
    priority, weight, port, target = srv_data.split()
    assert (priority, weight, port) == ("0", "0", "9123")
    [(_, _, txt_data)] = [r for r in records(txt) if r[1] == "TXT"]
    assert re.findall(r'"([^"]*)"', txt_data) == [
        "txtvers=1", "proto=1", f"table={name}", "host=Ann", "rules=classic",
        "seats=1/4", "state=waiting", "pw=1", "ssh=2222", "web=8080",
    ]  # fmt: skip
    assert (target, "A", lan.host_address) in records(dig(lan, target, "A"))


def dig(lan: NamespaceLan, name: str, record_type: str) -> str:
    """Ask the host's mDNS responder directly with dig (unicast DNS to port 5353)."""
    result = subprocess.run(
        [
            *lan.exec_prefix(lan.guest_ns), "dig", "-p", "5353", f"@{lan.host_address}",
            name, record_type, "+noall", "+answer", "+additional", "+time=2", "+tries=2",
        ],
        capture_output=True, text=True, check=False, timeout=30,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def records(dig_output: str) -> list[tuple[str, str, str]]:
    """(owner name, type, data) of each record line dig printed."""
    found = []
    for line in dig_output.splitlines():
        fields = line.split(None, 4)
        if len(fields) == 5 and not line.startswith(";"):
            owner, _ttl, _class, record_type, data = fields
            found.append((owner, record_type, data))
    return found


async def next_line(process: asyncio.subprocess.Process) -> dict[str, Any]:
    """The next JSON line a discovery_cli child prints."""
    assert process.stdout is not None
    async with asyncio.timeout(10):
        line = await process.stdout.readline()
    assert line, "the child ended early"
    return json.loads(line)


def test_namespaces_are_gone_after_the_lan_closes() -> None:
    reason = netns_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    with NamespaceLan() as namespaces:
        made = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout

    assert namespaces.host_ns in made and namespaces.guest_ns in made
    assert namespaces.host_ns not in left and namespaces.guest_ns not in left


@pytest.mark.skipif(
    importlib.util.find_spec("ono99tui.commands.host") is None,
    reason="`ono99 host` is not part of this checkout yet",
)
async def test_a_game_is_found_joined_and_played_across_the_lan(
    lan: NamespaceLan, tmp_path: Path
) -> None:
    name = unique_table_name()
    log = tmp_path / "host.log"
    with log.open("wb") as host_stderr:
        host = await asyncio.create_subprocess_exec(
            *lan.exec_prefix(lan.host_ns), sys.executable, "-m", "ono99tui", "host",
            "--headless", "--bind", lan.host_address, "--port", "0", "--name", name,
            "--seats", "2", "--bots", "1", "--bot-delay", "0", "--exit-after", "1",
            "--mdns-interface", lan.host_address,
            stdout=asyncio.subprocess.PIPE, stderr=host_stderr, env=child_env(),
        )  # fmt: skip
    try:
        assert (await next_line(host))["event"] == "listening", log.read_text()

        status, stdout, stderr = await run_ono99_list(
            "--json", "--timeout", "1.5", netns=lan.guest_ns, interface=lan.guest_address
        )
        assert status == 0, stderr
        [table] = tables_named(json.loads(stdout), name)
        assert table["addresses"] == [lan.host_address]
        assert table["answering"] is True  # probed across the veth pair

        bot = await asyncio.create_subprocess_exec(
            *lan.exec_prefix(lan.guest_ns), sys.executable, "-m", "ono99tui", "bot",
            f"{table['addresses'][0]}:{table['port']}", "--matches", "1",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=child_env(),
        )  # fmt: skip
        async with asyncio.timeout(60):
            bot_out, bot_err = await bot.communicate()
        assert bot.returncode == 0, bot_err.decode()
        assert json.loads(bot_out)["matches"] == 1

        # --exit-after 1: the host stops by itself once the match across the LAN is over.
        assert await next_line(host) == {"event": "stopped", "matches": 1}
        async with asyncio.timeout(10):
            assert await host.wait() == 0, log.read_text()
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()
