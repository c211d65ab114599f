"""Project-wide test settings.

zeroconf listens and sends on every interface by default; the test suite must only ever
touch loopback (or network namespaces a test made), so the interface is pinned here for
every test and every child process the tests start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator

import pytest

os.environ.setdefault("ONO99_MDNS_INTERFACES", "127.0.0.1")
# The tests (and the programs they start) speak English whatever the machine's locale: the
# snapshots are English; tests of other languages ask for theirs (`--lang`, use_language).
os.environ["LANGUAGE"] = "en"
# The snapshots are drawn in Unicode. On a machine whose locale is C (or none, as in CI's
# container), the tests and the programs they start get a UTF-8 one, so that what they
# draw is the same on every machine (`LANG=C` draws in ASCII: ono99tui/ui/glyphs.py).
# Tests of ASCII ask for it.
if not os.environ.get("LC_ALL") and os.environ.get("LANG", "C") in ("C", "POSIX"):
    os.environ["LANG"] = "C.UTF-8"

# No test writes into the real user data dir (tables' journals): the whole session gets a
# temporary one, and each test its own directory in it (`own_data_dir`), so that a host a
# test starts never takes up a match another test left unfinished under the same name.
SESSION_DATA_DIR = tempfile.mkdtemp(prefix="ono99-test-data-")
os.environ["ONO99_DATA_DIR"] = SESSION_DATA_DIR


@pytest.fixture(autouse=True)
def own_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    """Point ONO99_DATA_DIR (and so every child process) at a directory of this test's own."""
    monkeypatch.setenv("ONO99_DATA_DIR", tempfile.mkdtemp(dir=SESSION_DATA_DIR))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove the session's data dir."""
    shutil.rmtree(SESSION_DATA_DIR, ignore_errors=True)

# Tests that skip themselves where a system tool or root is missing. CI installs the tools
# and runs as root, so there a skip means a broken set-up, not a missing tool: it fails.
MUST_RUN_IN_CI = ("netns", "ssh", "tmux", "browser")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    """In CI (CI=true), turn a skip of a netns / ssh / tmux / browser test into a failure."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if (
        report.skipped
        and os.environ.get("CI") == "true"
        and any(item.get_closest_marker(name) for name in MUST_RUN_IN_CI)
    ):
        report.outcome = "failed"
        report.longrepr = f"CI must run this test, but it was skipped: {report.longrepr}"


class HostProcess:
    """`ono99 host --headless` as a child process on a port chosen up front, so that it can
    be killed (SIGKILL, as a crash or an unplugged machine) and started again on the same
    address; every JSON event it prints is kept in `events`, in order.

    `advertise`: advertise the table with mDNS on loopback (else `--no-advertise`).
    """

    def __init__(self, *options: str, env: dict[str, str] | None = None,
                 advertise: bool = False,
                 preexec_fn: Callable[[], None] | None = None) -> None:
        import socket

        with socket.socket() as probe:  # a port free now; the host binds it a moment later
            probe.bind(("127.0.0.1", 0))
            self.port: int = probe.getsockname()[1]
        self.options = options
        self.advertise = advertise
        # Run in the child before the host starts (a resource limit, say).
        self.preexec_fn = preexec_fn
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen[str] | None = None
        self.events: list[dict[str, object]] = []

    def start(self, timeout: float = 30.0) -> None:
        """Start the host and wait until it listens."""
        from testkit.headless import EventLines

        self.process = subprocess.Popen(
            [sys.executable, "-m", "ono99tui", "host", "--headless",
             *(("--mdns-interface", "127.0.0.1") if self.advertise else ("--no-advertise",)),
             "--bind", "127.0.0.1", "--port", str(self.port), *self.options],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=self.env,
            preexec_fn=self.preexec_fn)
        assert self.process.stdout is not None
        self._lines = EventLines(self.process.stdout)
        # Kept: it holds the table's address and a headless table's operator key.
        self.listening = self.wait_for_event("listening", timeout)

    def wait_for_event(self, name: str, timeout: float = 30.0) -> dict[str, object]:
        """Read the host's output until it prints the JSON event `name`; fail after `timeout`.
        Each event is returned once: a second wait for `name` waits for the next one."""
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event.get("event") == name:
                    self.events.remove(event)
                    return event
            read = self._lines.next_event(deadline)
            if read is None:
                raise AssertionError(f"the host exited before printing {name!r}"
                                     if self._lines.closed
                                     else f"the host printed no {name!r} within {timeout} s")
            self.events.append(read)

    def kill(self) -> None:
        """SIGKILL: no goodbye to anyone, nothing flushed but what is already written."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        if self.process is not None:
            self.process.wait()

    def terminate(self, timeout: float = 30.0) -> None:
        """SIGTERM (a system shutting down, `kill PID`): the host says its goodbyes and
        exits; wait for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
        if self.process is not None:
            self.process.wait(timeout)


@pytest.fixture
def host_process() -> Generator[Callable[..., HostProcess], None, None]:
    """Make `HostProcess`es; every one still running is killed after the test."""
    made: list[HostProcess] = []

    def make(*options: str, env: dict[str, str] | None = None,
             advertise: bool = False,
             preexec_fn: Callable[[], None] | None = None) -> HostProcess:
        host = HostProcess(*options, env=env, advertise=advertise, preexec_fn=preexec_fn)
        made.append(host)
        return host

    yield make
    for host in made:
        host.kill()
