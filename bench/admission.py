"""Seats under a socket flood from one address: prints ONE JSON object of figures.

    python bench/admission.py [--sockets 200] [--rounds 30]

A real headless host (`ono99 host --headless`, its own process, 8 seats, on 127.0.0.1) is
measured in the same run:
- `idle.seat_ms`: the baseline: a new player from 127.0.0.2 connects, says hello and gets
  its `welcome` (a seat), on a host nobody floods; then leaves (`bye`), freeing the seat.
- `held_flood.seat_ms`: the same, while `--sockets` sockets from 127.0.0.1 are held open
  without ever saying hello (opened before the first round; the host closes most of them
  to make room: `closed_by_host` says how many).
- `churning_flood.seat_ms`: the same, while another process keeps `--sockets` sockets
  from 127.0.0.1 open by reopening each one the host closes, as fast as it can (the loop
  of issue 11); `attacker_reopens` is how many sockets it opened during the rounds, which
  took `seconds`.
- `*.resume_ms`: a player seated (from 127.0.0.3) before the flood drops its link and
  sends `resume` with its token: the time to its `welcome`.
Each figure: `seated` (rounds that got their welcome within 5 s) out of `rounds`, and
p50 / max / mean in milliseconds of those that did. Every socket is on loopback.

    python bench/admission.py --doors [--flood 1400] [--descriptors 1024] [--rounds 10]

The host also opens its web and SSH doors (passwords from the environment) and runs with
at most `--descriptors` file descriptors (RLIMIT_NOFILE). Phases: `idle` (the baseline),
then `--flood` sockets held open from 100 addresses (127.0.9.x) against, in turn, the web
door (`web_idle`), the web door with each socket sending one byte of a request a second
(`web_slowloris`), the SSH door (`ssh_idle`) and the table's port (`table_idle`). In each:
`descriptors` (the host's open descriptors, most seen while the honest logins ran),
`closed_by_host` (flood sockets the host had closed by the end), `log_lines` (what the host
wrote to stderr meanwhile, but for the table's lines about the honest players), and the
time of an honest login, each `--rounds` times from an address of its own: `table_ms`
(hello to welcome), `web_ms` (the page, the password, a seat) and `ssh_ms` (connect to
logged in, with asyncssh); a login not done in 10 s counts as failed.

    python bench/admission.py --guessing [--guess-seconds 60]

Password guessing at the same host, with wrong passwords as fast as the door answers,
first from one address (8 connections at once), then from 30 addresses (2 each): at the SSH
door (asyncssh, many passwords per connection), at the web door's login form, and at the
table's `--admin-password` (hello with a wrong `host_key`). Each: `checked` (wrong guesses
the host looked at: a `403`, a `bad-host-key`, an SSH failure without the door's "wait"
banner) and `refused` (turned away unread), per second; and the honest login of each
door from a fresh address during the 30-address guessing, beside the `idle` baseline (the
admin password is tried again after a second when the table says "try again", as a person
would: the table's port answers at once, while the doors wait out a short turn).
`--host-repo DIR` runs the host from another source tree (to measure an older version).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT)]

from netproto.wire.framing import FrameDecoder, encode_frame  # noqa: E402
from netproto.wire.messages import PROTOCOL_VERSION  # noqa: E402

ANSWER_TIMEOUT = 5.0
FLOODER = "127.0.0.1"
NEWCOMER = "127.0.0.2"
RESUMER = "127.0.0.3"


class Wire:
    """One raw connection from a chosen loopback address, speaking frames."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()
        self.frames: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, port: int, source: str) -> Wire:
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                      local_addr=(source, 0))
        return cls(reader, writer)

    def send(self, wire: dict[str, Any]) -> None:
        self.writer.write(encode_frame(wire))

    async def next(self) -> dict[str, Any] | None:
        """The next frame that is not a ping, or None when the host closed."""
        while True:
            while self.frames:
                frame = self.frames.pop(0)
                if frame.get("kind") != "ping":
                    return frame
            try:
                data = await self.reader.read(65536)
            except ConnectionError:
                return None
            if not data:
                return None
            self.frames.extend(f for f in self.decoder.feed(data) if isinstance(f, dict))

    def close(self) -> None:
        self.writer.close()


async def handshake(port: int, source: str, first: dict[str, Any]) -> tuple[
        float | None, Wire | None, dict[str, Any]]:
    """Connect from `source`, send `first`: (ms to the welcome, the wire, the welcome), or
    (None, None, {}) if it was refused, closed or not answered within ANSWER_TIMEOUT."""
    started = time.perf_counter()
    try:
        wire = await Wire.open(port, source)
        wire.send(first)
        reply = await asyncio.wait_for(wire.next(), ANSWER_TIMEOUT)
    except (OSError, TimeoutError):
        return None, None, {}
    if reply is None or reply.get("kind") != "welcome":
        wire.close()
        return None, None, {}
    return (time.perf_counter() - started) * 1000, wire, reply


def hello(name: str) -> dict[str, Any]:
    return {"kind": "hello", "proto": PROTOCOL_VERSION, "name": name}


def summary(times: list[float | None]) -> dict[str, Any]:
    got = [t for t in times if t is not None]
    figures: dict[str, Any] = {"seated": len(got), "rounds": len(times)}
    if got:
        figures.update(p50=round(statistics.median(got), 2), max=round(max(got), 2),
                       mean=round(statistics.fmean(got), 2))
    return figures


async def rounds(port: int, count: int, token: str) -> dict[str, Any]:
    """`count` newcomers (seated, then leaving) and `count` resumes of the seat of `token`."""
    seat_times: list[float | None] = []
    resume_times: list[float | None] = []
    for number in range(count):
        elapsed, wire, welcome = await handshake(port, NEWCOMER, hello(f"New {number}"))
        seat_times.append(elapsed if welcome.get("role") == "player" else None)
        if wire is not None:
            wire.send({"kind": "bye", "code": "normal"})
            await wire.next()
            wire.close()
        elapsed, wire, _ = await handshake(
            port, RESUMER, {"kind": "resume", "proto": PROTOCOL_VERSION, "token": token})
        resume_times.append(elapsed)
        if wire is not None:
            wire.close()  # a drop, not a goodbye: the seat is held for the next round
    return {"seat_ms": summary(seat_times), "resume_ms": summary(resume_times)}


async def attack(port: int, sockets: int, flooder: str = FLOODER) -> None:
    """Keep `sockets` idle sockets from `flooder` open to the host, reopening each one it
    closes (also usable by hand: `--attack PORT [--flooder ADDR]`, until interrupted)."""
    opened = 0

    async def one() -> None:
        nonlocal opened
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                              local_addr=(flooder, 0))
            except OSError:
                await asyncio.sleep(0.001)
                continue
            opened += 1
            try:
                while await reader.read(65536):
                    pass
            except ConnectionError:
                pass
            writer.close()

    async def report() -> None:
        # The parent reads the count when it stops us: print it on every change.
        last = -1
        while True:
            await asyncio.sleep(0.05)
            if opened != last:
                last = opened
                print(opened, flush=True)

    await asyncio.gather(report(), *(one() for _ in range(sockets)))


def start_host() -> tuple[subprocess.Popen[str], int]:
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", "127.0.0.1",
         "--port", "0", "--no-advertise", "--seats", "8", "--start-when", "8",
         "--name", "Bench"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert host.stdout is not None
    for line in host.stdout:
        if line.startswith("{"):
            event = json.loads(line)
            if event.get("event") == "listening":
                return host, int(event["port"])
    raise RuntimeError("the host did not start")


async def measure(sockets: int, count: int) -> dict[str, Any]:
    host, port = start_host()
    try:
        for number in range(3):  # warm the host up: the first connections cost more
            _, wire, _ = await handshake(port, NEWCOMER, hello(f"Warm {number}"))
            if wire is not None:
                wire.send({"kind": "bye", "code": "normal"})
                await wire.next()
                wire.close()
        _, seated, welcome = await handshake(port, RESUMER, hello("Resumer"))
        assert seated is not None, "the resumer could not sit down"
        token = welcome["token"]
        seated.close()  # a drop: the seat is held, and resumed in every round
        results: dict[str, Any] = {"idle": await rounds(port, count, token)}

        flood = [await Wire.open(port, FLOODER) for _ in range(sockets)]
        held = await rounds(port, count, token)
        still_open = 0
        for wire in flood:  # a displaced socket has its bye and EOF waiting already
            try:
                await asyncio.wait_for(wire.next(), 0.05)
            except TimeoutError:
                still_open += 1
        held["sockets"] = sockets
        held["closed_by_host"] = sockets - still_open
        results["held_flood"] = held
        for wire in flood:
            wire.close()

        attacker = subprocess.Popen(
            [sys.executable, __file__, "--attack", str(port), "--sockets", str(sockets)],
            stdout=subprocess.PIPE, text=True)
        assert attacker.stdout is not None
        before = int(attacker.stdout.readline())  # its first sockets are open
        started = time.perf_counter()
        churn = await rounds(port, count, token)
        churn["seconds"] = round(time.perf_counter() - started, 2)
        attacker.terminate()
        out, _ = attacker.communicate(timeout=10)
        lines = out.split()
        churn["sockets"] = sockets
        churn["attacker_reopens"] = (int(lines[-1]) if lines else before) - before
        results["churning_flood"] = churn
        return results
    finally:
        host.terminate()
        host.wait(10)


# --- the doors (issue 23) ------------------------------------------------------------------

PASSWORD = "a shared secret"
ADMIN_PASSWORD = "the admin password"
LOGIN_TIMEOUT = 10.0


class DoorHost:
    """A headless host with both doors, at a descriptor limit, logging to a file."""

    def __init__(self, descriptors: int, repo: Path, workdir: Path) -> None:
        self.log_path = workdir / "host.log"
        self._log = self.log_path.open("w")
        env = {**os.environ, "PYTHONPATH": str(repo), "ONO99_WEB_PASSWORD": PASSWORD,
               "ONO99_SSH_PASSWORD": PASSWORD, "ONO99_ADMIN_PASSWORD": ADMIN_PASSWORD,
               "ONO99_DATA_DIR": str(workdir / "data"),
               "ONO99_CONFIG_DIR": str(workdir / "config")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", "127.0.0.1",
             "--port", "0", "--no-advertise", "--fresh", "--seats", "8", "--start-when", "8",
             "--name", "Bench", "--web-port", "0", "--ssh-port", "0"],
            stdout=subprocess.PIPE, stderr=self._log, text=True, env=env, cwd=repo,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE,
                                                  (descriptors, descriptors)))
        assert self.process.stdout is not None
        events: dict[str, Any] = {}
        for line in self.process.stdout:
            if line.startswith("{"):
                event = json.loads(line)
                events[event["event"]] = event
            if {"listening", "web-door", "ssh-door"} <= events.keys():
                break
        else:
            raise RuntimeError("the host did not start: " + self.log_path.read_text())
        self.table_port = int(events["listening"]["port"])
        self.web_port = int(events["web-door"]["port"])
        self.ssh_port = int(events["ssh-door"]["port"])

    def descriptors(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def log_lines(self) -> int:
        """Lines in the host's log, but for the table's own about the honest players."""
        self._log.flush()
        return sum(1 for line in self.log_path.read_text(errors="replace").splitlines()
                   if "ono99tui.host.core:" not in line)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


async def timed(work: Any) -> float | None:
    """Milliseconds `work` (a coroutine) took, or None if it failed or took too long."""
    started = time.perf_counter()
    try:
        async with asyncio.timeout(LOGIN_TIMEOUT):
            if not await work:
                return None
    except Exception:
        return None
    return (time.perf_counter() - started) * 1000


async def table_login(port: int, source: str) -> bool:
    wire = await Wire.open(port, source)
    try:
        wire.send(hello("Honest"))
        reply = await wire.next()
        if reply is None or reply.get("kind") != "welcome":
            return False
        wire.send({"kind": "bye", "code": "normal"})
        return True
    finally:
        wire.close()


async def admin_login(port: int, source: str) -> bool:
    """The operator's `ono99 join --host-key`, tried again as a person would after "try
    again in 1 s" (the table's port answers at once; it cannot hold a hello in line)."""
    for _ in range(4):
        wire = await Wire.open(port, source)
        try:
            wire.send({**hello("Operator"), "host_key": ADMIN_PASSWORD})
            reply = await wire.next()
            if reply is not None and reply.get("kind") == "welcome":
                wire.send({"kind": "bye", "code": "normal"})
                return True
            if reply is None or reply.get("code") != "rate-limited":
                return False
        finally:
            wire.close()
        await asyncio.sleep(1.0)
    return False


async def web_login(port: int, source: str) -> bool:
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector,
                                     cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.get(base + "/") as page:
            await page.read()
        async with client.post(base + "/login", data={"password": PASSWORD},
                               headers={"Origin": base}, allow_redirects=False) as login:
            if login.status != 303:
                return False
        async with client.post(base + "/seat", json={"name": "honest"},
                               headers={"Origin": base}) as seat:
            return seat.status == 200


async def ssh_login(port: int, source: str) -> bool:
    import asyncssh

    async with asyncssh.connect("127.0.0.1", port, username="honest", password=PASSWORD,
                                known_hosts=None, client_keys=None, agent_path=None,
                                local_addr=(source, 0), preferred_auth="password"):
        return True


async def honest_logins(host: DoorHost, rounds: int, phase: int) -> dict[str, Any]:
    """Each door's honest login, `rounds` times, from addresses nobody floods from."""
    table, web, ssh = [], [], []
    most = host.descriptors()
    for number in range(rounds):
        source = f"127.0.{20 + phase}.{number + 1}"
        table.append(await timed(table_login(host.table_port, source)))
        web.append(await timed(web_login(host.web_port, source)))
        ssh.append(await timed(ssh_login(host.ssh_port, source)))
        most = max(most, host.descriptors())
    return {"table_ms": summary(table), "web_ms": summary(web), "ssh_ms": summary(ssh),
            "descriptors": most}


class Flood:
    """`count` sockets held open to `port` from 100 addresses; optionally each sending one
    byte of an endless request header a second (slowloris)."""

    def __init__(self, port: int, count: int, trickle: bool = False) -> None:
        self.port = port
        self.count = count
        self.trickle = trickle
        self.sockets: list[socket.socket] = []
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Open them all (at most 5 s: a host that stopped accepting leaves the rest
        waiting in a full backlog; they count as sockets it did not take)."""
        loop = asyncio.get_running_loop()

        async def connect(sock: socket.socket) -> None:
            with contextlib.suppress(OSError, TimeoutError):
                async with asyncio.timeout(5):
                    await loop.sock_connect(sock, ("127.0.0.1", self.port))

        for number in range(self.count):
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((f"127.0.9.{number % 100 + 1}", 0))
            self.sockets.append(sock)
        await asyncio.gather(*(connect(sock) for sock in self.sockets))
        if self.trickle:
            self._task = asyncio.create_task(self._trickle())

    async def _trickle(self) -> None:
        header = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        sent = 0
        while True:
            byte = header[sent:sent + 1] or b"a"
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.send(byte)
            sent += 1
            await asyncio.sleep(1.0)

    def closed_by_host(self) -> int:
        closed = 0
        for sock in self.sockets:
            try:
                while True:
                    if not sock.recv(65536):
                        closed += 1
                        break
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        return closed

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for sock in self.sockets:
            sock.close()


async def measure_doors(flood: int, descriptors: int, rounds: int, repo: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-doors-") as workdir:
        host = DoorHost(descriptors, repo, Path(workdir))
        try:
            await honest_logins(host, 2, 0)  # warm up: the first logins cost more
            results: dict[str, Any] = {"idle": await honest_logins(host, rounds, 1)}
            cases = [("web_idle", host.web_port, False), ("web_slowloris", host.web_port, True),
                     ("ssh_idle", host.ssh_port, False), ("table_idle", host.table_port, False)]
            for phase, (name, port, trickle) in enumerate(cases, start=2):
                lines_before = host.log_lines()
                attack = Flood(port, flood, trickle)
                await attack.open()
                await asyncio.sleep(2.0)  # the host takes them in (or not)
                figures = await honest_logins(host, rounds, phase)
                figures["closed_by_host"] = attack.closed_by_host()
                figures["log_lines"] = host.log_lines() - lines_before
                results[name] = figures
                attack.close()
                await asyncio.sleep(3.0)  # the host lets go of them before the next case
        finally:
            host.stop()
        return results


# --- guessing ---------------------------------------------------------------------------


class Counts:
    def __init__(self) -> None:
        self.checked = 0
        self.refused = 0

    def rates(self, seconds: float) -> dict[str, float]:
        return {"checked": self.checked, "refused": self.refused,
                "checked_per_second": round(self.checked / seconds, 3),
                "refused_per_second": round(self.refused / seconds, 1)}


async def guess_ssh(port: int, source: str, until: float, counts: Counts) -> None:
    import asyncssh

    class Guesser(asyncssh.SSHClient):
        def __init__(self) -> None:
            self.tried = False
            self.banner = False
            self.number = 0

        def auth_banner_received(self, msg: str, lang: str) -> None:
            self.banner = True

        def password_auth_requested(self) -> str | None:
            if self.tried:  # the last one failed: read, or refused unread (the banner)
                if self.banner:
                    counts.refused += 1
                else:
                    counts.checked += 1
            self.tried, self.banner = True, False
            self.number += 1
            return None if time.monotonic() > until else f"guess {self.number}"

    while time.monotonic() < until:
        try:
            async with asyncssh.connect(
                    "127.0.0.1", port, username="guesser", known_hosts=None,
                    client_keys=None, agent_path=None, local_addr=(source, 0),
                    client_factory=Guesser, preferred_auth="password"):
                pass
        except (asyncssh.Error, OSError):
            await asyncio.sleep(0.01)


async def guess_web(port: int, source: str, until: float, counts: Counts) -> None:
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as client:
        number = 0
        while time.monotonic() < until:
            number += 1
            try:
                async with client.post(base + "/login", data={"password": f"guess {number}"},
                                       headers={"Origin": base},
                                       allow_redirects=False) as response:
                    await response.read()
                    if response.status == 403:
                        counts.checked += 1
                    elif response.status == 429:
                        counts.refused += 1
            except aiohttp.ClientError:
                await asyncio.sleep(0.01)


async def guess_admin(port: int, source: str, until: float, counts: Counts) -> None:
    number = 0
    while time.monotonic() < until:
        try:
            wire = await Wire.open(port, source)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        try:
            while time.monotonic() < until:
                number += 1
                wire.send({**hello("Guesser"), "host_key": f"guess {number}"})
                reply = await asyncio.wait_for(wire.next(), 5)
                if reply is None or reply.get("kind") != "error":
                    break
                if reply.get("code") == "bad-host-key":
                    counts.checked += 1
                elif reply.get("code") == "rate-limited":
                    counts.refused += 1
        except (OSError, TimeoutError):
            pass
        finally:
            wire.close()


async def measure_guessing(seconds: float, repo: Path) -> dict[str, Any]:
    doors = {"ssh": (guess_ssh, "ssh_port"), "web": (guess_web, "web_port"),
             "admin_password": (guess_admin, "table_port")}
    with tempfile.TemporaryDirectory(prefix="bench-guess-") as workdir:
        host = DoorHost(4096, repo, Path(workdir))
        try:
            await honest_logins(host, 2, 0)
            results: dict[str, Any] = {"idle": await admin_and_logins(host, 5, 1)}
            for phase, (name, (guesser, port_name)) in enumerate(doors.items(), start=2):
                port = getattr(host, port_name)
                counts = Counts()
                until = time.monotonic() + seconds
                await asyncio.gather(*(guesser(port, f"127.0.{30 + phase}.1", until, counts)
                                       for _ in range(8)))
                one = counts.rates(seconds)
                counts = Counts()
                until = time.monotonic() + seconds
                sources = [f"127.0.{40 + phase}.{number}" for number in range(1, 31)]
                during = asyncio.create_task(logins_while(host, until, 50 + phase))
                await asyncio.gather(*(guesser(port, source, until, counts)
                                       for source in sources for _ in range(2)))
                results[name] = {"one_address": one, "thirty_addresses": counts.rates(seconds),
                                 "honest_logins_meanwhile": await during}
        finally:
            host.stop()
        return results


async def admin_and_logins(host: DoorHost, rounds: int, phase: int) -> dict[str, Any]:
    figures = await honest_logins(host, rounds, phase)
    admin = [await timed(admin_login(host.table_port, f"127.0.{20 + phase}.{n + 100}"))
             for n in range(rounds)]
    figures["admin_ms"] = summary(admin)
    return figures


async def logins_while(host: DoorHost, until: float, phase: int) -> dict[str, Any]:
    """Honest logins (each from a fresh address) every 2 s until `until`."""
    table: list[float | None] = []
    web: list[float | None] = []
    ssh: list[float | None] = []
    admin: list[float | None] = []
    number = 0
    await asyncio.sleep(min(5.0, max(0.0, until - time.monotonic()) / 2))
    while time.monotonic() < until - 1:
        number += 1
        source = f"127.0.{phase}.{number}"
        table.append(await timed(table_login(host.table_port, source)))
        admin.append(await timed(admin_login(host.table_port, source)))
        web.append(await timed(web_login(host.web_port, source)))
        ssh.append(await timed(ssh_login(host.ssh_port, source)))
        await asyncio.sleep(2.0)
    return {"table_ms": summary(table), "admin_ms": summary(admin), "web_ms": summary(web),
            "ssh_ms": summary(ssh)}


def raise_own_descriptor_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=None,
                        help="rounds per phase (default 30; with --doors 10)")
    parser.add_argument("--attack", type=int, metavar="PORT",
                        help="only flood the host on 127.0.0.1:PORT, until interrupted")
    parser.add_argument("--flooder", default=FLOODER,
                        help="with --attack: the address to flood from (default 127.0.0.1)")
    parser.add_argument("--doors", action="store_true",
                        help="flood the doors and the table port at a descriptor limit")
    parser.add_argument("--flood", type=int, default=1400)
    parser.add_argument("--descriptors", type=int, default=1024)
    parser.add_argument("--guessing", action="store_true", help="guess passwords at every door")
    parser.add_argument("--guess-seconds", type=float, default=60.0)
    parser.add_argument("--host-repo", type=Path, default=REPO_ROOT,
                        help="run the host from this source tree (default: this one)")
    options = parser.parse_args()
    if options.attack:
        asyncio.run(attack(options.attack, options.sockets, options.flooder))
        return
    repo = options.host_repo.resolve()
    if options.doors:
        raise_own_descriptor_limit(options.flood + 1024)
        figures = asyncio.run(measure_doors(options.flood, options.descriptors,
                                            options.rounds or 10, repo))
        print(json.dumps({"flood": options.flood, "host_descriptor_limit": options.descriptors,
                          "host_repo": str(repo), **figures}))
        return
    if options.guessing:
        raise_own_descriptor_limit(4096)
        figures = asyncio.run(measure_guessing(options.guess_seconds, repo))
        print(json.dumps({"seconds": options.guess_seconds, "host_repo": str(repo),
                          **figures}))
        return
    figures = asyncio.run(measure(options.sockets, options.rounds or 30))
    print(json.dumps({"sockets_from_one_address": options.sockets, **figures}))


if __name__ == "__main__":
    main()
