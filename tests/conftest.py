"""Project-wide test settings.

zeroconf listens and sends on every interface by default; the test suite must only ever
touch loopback (or network namespaces a test made), so the interface is pinned here for
every test and every child process the tests start.
"""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest

os.environ.setdefault("ONO99_MDNS_INTERFACES", "127.0.0.1")

# Tests that skip themselves where a system tool or root is missing. CI installs the tools
# and runs as root, so there a skip means a broken set-up, not a missing tool: it fails.
MUST_RUN_IN_CI = ("netns", "ssh", "tmux")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    """In CI (CI=true), turn a skip of a netns / ssh / tmux test into a failure."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if (
        report.skipped
        and os.environ.get("CI") == "true"
        and any(item.get_closest_marker(name) for name in MUST_RUN_IN_CI)
    ):
        report.outcome = "failed"
        report.longrepr = f"CI must run this test, but it was skipped: {report.longrepr}"
