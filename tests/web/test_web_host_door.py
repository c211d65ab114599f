"""`ono99 host --headless --web-port`: the announcement, the TXT record, and the stop."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import aiohttp
from web_helpers import WebHost

from netproto.discovery import TableBrowser


async def test_a_headless_host_announces_and_advertises_its_web_door(tmp_path: Path) -> None:
    name = f"web door {uuid.uuid4().hex[:8]}"
    host = WebHost("--name", name, "--seats", "3", "--bots", "2", "--web-open",
                   env={"ONO99_CONFIG_DIR": str(tmp_path)})
    try:
        door = host.wait_for_event("web-door")
        assert door["url"].endswith(f":{door['port']}/") and door["password"] is False
        async with aiohttp.ClientSession() as client, client.get(host.url) as response:
            page = await response.text()
        assert response.status == 200 and f"<title>{name}</title>" in page
    finally:
        assert host.stop() == 0


async def test_the_web_port_is_in_the_tables_advertisement(tmp_path: Path) -> None:
    name = f"web door {uuid.uuid4().hex[:8]}"
    host = WebHost("--name", name, "--seats", "3", "--bots", "2", "--web-open",
                   env={"ONO99_CONFIG_DIR": str(tmp_path)}, advertise_on="127.0.0.1")
    try:
        door = host.wait_for_event("web-door")
        async with TableBrowser(["127.0.0.1"]) as browser:
            for _ in range(200):
                found = [t for t in browser.tables.values() if t.info.name == name]
                if found:
                    break
                await asyncio.sleep(0.05)
        assert found, "the table was not heard on loopback"
        assert found[0].info.web_port == door["port"]
    finally:
        assert host.stop() == 0
