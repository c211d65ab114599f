"""netproto's public names: each one is where `netproto` says, and loading one loads no other layer."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import netproto


@pytest.mark.parametrize("name", netproto.__all__)
def test_each_public_name_is_the_defining_modules_own(name: str) -> None:
    module = importlib.import_module(netproto._PUBLIC_NAMES[name])
    assert getattr(netproto, name) is getattr(module, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = netproto.no_such_name  # type: ignore[attr-defined]


def test_the_wire_layer_loads_without_the_lan_layer() -> None:
    # A fresh interpreter: this process may have imported zeroconf already.
    code = (
        "import sys, netproto; netproto.encode_frame; netproto.Connection;"
        "print('netproto.lan.discovery' in sys.modules, 'zeroconf' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
