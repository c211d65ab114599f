"""Guessing a headless table's `--admin-password` (issue 23, item 10), through the real
table core on loopback sockets. Before: wrong passwords were refused as fast as they came
(about 100 a second); now, past a few, an address waits longer and longer, and the right
password from it is not even looked at meanwhile."""

from __future__ import annotations

import pytest

from netproto.client import TableClient
from netproto.client_errors import HandshakeRefused
from netproto.limits import GuessPolicy
from netproto.server import ServerLimits
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig

# Pauses far longer than the test, so that the refusals below cannot depend on its speed.
LIMITS = ServerLimits(guesses=GuessPolicy(free_per_address=2, first_pause=600.0,
                                          max_pause=600.0))


async def test_wrong_admin_passwords_back_off_and_the_right_one_waits_too() -> None:
    config = TableConfig(capacity=4, admin_password="the real one", host_key="operator")
    async with TableServer(config, limits=LIMITS) as server:
        codes = []
        for guess in ("guess one", "guess two", "guess three", "the real one"):
            with pytest.raises(HandshakeRefused) as refused:
                await TableClient.connect("127.0.0.1", server.port, name="Mallory",
                                          host_key=guess)
            codes.append(refused.value.code)
        assert codes == ["bad-host-key", "bad-host-key", "rate-limited", "rate-limited"]
        assert "try again in 600 s" in refused.value.reason
        # A guest without a key is no guesser: it sits down as usual.
        guest = await TableClient.connect("127.0.0.1", server.port, name="Guest")
        assert guest.role == "player" and guest.welcome is not None
        assert not guest.welcome.host
        await guest.close()
