"""Who gets host rights at a table: the holder of a secret, or the first player seated.

Host rights (start a match, add or remove bots, change the rules) belong to one seat. A
table with a secret gives them only to a `hello` whose `host_key` equals it: the host's own
app connects with a key made for it (`TableConfig.host_key`), and at a headless table the
operator's key or `--admin-password` (`TableConfig.admin_password`) is that secret. A table
with neither (tests, in-process tables) gives them to the first human seated, then to the
next connected human when that seat is freed.
"""

from __future__ import annotations

import secrets

from netproto.wire.errors import BadHostKey
from ono99tui.host.table_config import TableConfig


def holds_host_secret(config: TableConfig, offered: str | None) -> bool:
    """Whether `offered` (a hello's `host_key`) is one of the table's secrets.

    Compared in constant time against each secret the table has, whatever matches first,
    so the time taken says nothing about how much of a secret was right.
    """
    if offered is None:
        return False
    offered_bytes = offered.encode()
    matched = False
    for secret in (config.host_key, config.admin_password):
        if secret is not None:
            matched |= secrets.compare_digest(offered_bytes, secret.encode())
    return matched


def offered_key_grants_rights(config: TableConfig, offered: str | None) -> bool:
    """Whether a hello offering `offered` as its `host_key` gets host rights.

    Raises BadHostKey (`bad-host-key`, which counts toward the connection's error budget)
    when the table has a secret and `offered` is not it: an operator who mistyped the admin
    password is told so, not seated without rights in silence. At a table with no secret
    a key grants nothing and is ignored.
    """
    if offered is None or first_player_hosts(config):
        return False
    if not holds_host_secret(config, offered):
        raise BadHostKey("wrong host key (admin password)")
    return True


def first_player_hosts(config: TableConfig) -> bool:
    """Whether host rights go to the first human seated (the table has no secret)."""
    return config.host_key is None and config.admin_password is None
