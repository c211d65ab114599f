"""The SSH door: an asyncssh server that puts each SSH user straight into this table's app.

Who may come in, and how many: connections that have not logged in are held in an
`AdmissionPool` (a few per address, a few more in all; a newcomer displaces the oldest idle
one rather than being refused), one that has not even sent its SSH version within
`DoorConfig.silent_timeout` is closed, and asyncssh closes one that has not logged in
within `login_timeout`; while few file descriptors are free (`DescriptorBudget`), new
connections are closed at once, so the table keeps its own. Password guesses go through a
`GuessThrottle` (per address and in all, exponential back-off). Lines about misbehaving
clients go through a `QuietLog`: one a minute per kind, with a count (docs/SSH.md "Limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from netproto.admission import AdmissionPool
from netproto.descriptors import DescriptorBudget
from netproto.limits import GuessPolicy, GuessThrottle, QuietLog, address_key
from ono99tui.access import HIGH_CONTRAST_ENV, PLAIN_ENV
from ono99tui.host.door_settings import DoorSettings, join_command
from ono99tui.i18n import N_
from ono99tui.ssh import ssh_command_line
from ono99tui.ssh.host_key import fingerprint, load_or_create_host_key
from ono99tui.ssh.session import DoorSession
from ono99tui.ssh.user_names import accept_any_unicode_user_name
from ono99tui.user_settings import CONFIG_DIR_ENV

log = logging.getLogger("ono99tui.ssh")

# Variables of the host's environment the app needs to start; nothing else leaks through.
_INHERITED_ENV = ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV", "ONO99_MDNS_INTERFACES", "TZ")
# Variables an SSH client may send (OpenSSH: SendEnv) that decide colours and glyphs, the
# session's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, read as gettext reads them:
# docs/SSH.md "Your language"), and line mode and the high-contrast theme (ONO99_PLAIN=1,
# ONO99_HIGH_CONTRAST=1: docs/ACCESSIBILITY.md).
_CLIENT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LANGUAGE", "COLORTERM",
               "NO_COLOR", PLAIN_ENV, HIGH_CONTRAST_ENV)
_DEFAULT_LANG = "C.UTF-8"
MAX_PLAYER_NAME = 64

# Stages of a connection not logged in yet (`AdmissionPool`): the lower goes first when
# room is needed.
GUESSING = 0  # a password of it was wrong, or turned away unread: likely a guesser
SILENT = 1  # a TCP connection that has not sent an SSH version
SPEAKING = 2  # a real SSH client: key exchange, maybe its user at the host-key question
AUTHENTICATING = 3  # it asked to log in: its user may be typing the password
# A connection this young that has not guessed wrong is not displaced: long enough for a
# key exchange and a login request on a loaded machine.
PROTECTED_FOR = 3.0
# How often the door looks at its connections (silent ones, the log's counts).
_TICK = 0.5


class DoorConfigError(ValueError):
    """The door's settings are unusable (for example, no way to let anyone in)."""


@dataclass(frozen=True, kw_only=True)
class DoorConfig(DoorSettings):
    """Everything the SSH door needs; see `ono99 host --help` for the matching flags.

    Access is closed unless one of *password*, *authorized_keys* or *open_access* is given.
    """

    table_address: str
    host_key_path: Path
    players_dir: Path
    authorized_keys: Path | None = None
    # From the TCP connection to a completed login (asyncssh's login timeout): a person
    # reading the host-key question and typing the password needs about this much.
    login_timeout: float = 20.0
    # A connection that has not sent its SSH version (every client sends it at once) is
    # closed after this long.
    silent_timeout: float = 5.0
    # Connections not logged in yet, from one address and in all (`AdmissionPool`); None:
    # 4 per address and twice the session cap (at least 16) in all.
    preauth_per_address: int = 4
    preauth_in_all: int | None = None
    guesses: GuessPolicy = field(default_factory=GuessPolicy)
    # File descriptors kept free for the table (None: a quarter of the limit, at least 128).
    descriptor_reserve: int | None = None
    command: Callable[[str], Sequence[str]] | None = None
    extra_env: Mapping[str, str] = field(default_factory=dict)

    @property
    def preauth_cap(self) -> int:
        """Connections not logged in yet that the door holds at most."""
        if self.preauth_in_all is not None:
            return self.preauth_in_all
        return max(16, 2 * self.max_sessions)

    @property
    def connection_cap(self) -> int:
        """Logged-in connections at most (some may have no session open yet)."""
        return 2 * self.max_sessions + 4

    def validate(self) -> None:
        """Raise DoorConfigError unless the settings make a usable, closed-by-default door."""
        problem = self.settings_problem(
            "SSH", "--ssh", other_way_in="--ssh-authorized-keys FILE",
            other_ways_given=self.authorized_keys is not None)
        if problem is not None:
            raise DoorConfigError(problem)
        if self.authorized_keys is not None and not self.authorized_keys.is_file():
            raise DoorConfigError(f"authorized keys file not found: {self.authorized_keys}")
        if self.preauth_per_address < 1 or self.preauth_cap < 1:
            raise DoorConfigError("the door must hold at least one connection logging in")


def player_dir_name(player: str) -> str:
    """A file name for *player*'s own config directory, distinct for distinct names."""
    readable = re.sub(r"[^A-Za-z0-9_.-]", "_", player)[:32].lstrip(".") or "player"
    digest = hashlib.sha256(player.encode()).hexdigest()[:10]
    return f"{readable}-{digest}"


def player_name_problem(player: str, words: Callable[[str], str] = lambda text: text
                        ) -> str | None:
    """Why an SSH user name cannot be used as a player name (said with `words`, a
    session's translator), or None if it can."""
    if not player or len(player) > MAX_PLAYER_NAME or not player.isprintable():
        return words(N_("the SSH user name must be 1 to {most} printable characters; it "
                        "becomes your player name: ssh -p PORT NAME@HOST")).format(
            most=MAX_PLAYER_NAME)
    return None


class _DoorServer(asyncssh.SSHServer):
    """Per-connection policy: who gets in, and that only sessions are served."""

    def __init__(self, door: SSHDoor) -> None:
        self._door = door
        self._conn: asyncssh.SSHServerConnection | None = None
        self._username = ""
        self._address = "?"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        self._address = address_key(conn.get_extra_info("peername"))
        self._door._connection_opened(conn, self._address)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self._door._connection_closed(self._conn)

    def begin_auth(self, username: str) -> bool:
        self._username = username
        if self._conn is not None:
            self._door._authenticating(self._conn)
        return not self._door.config.open_access

    def auth_completed(self) -> None:
        if self._conn is not None:
            self._door._logged_in(self._conn)

    def password_auth_supported(self) -> bool:
        return bool(self._door.config.password)

    async def validate_password(self, username: str, password: str) -> bool:
        door = self._door
        expected = door.config.password or ""
        wait = door.guesses.begin(self._address, door.clock())
        for _ in range(3):  # a turn in line is waited out, not refused
            if not door.guesses.short_wait(self._address, wait):
                break
            await asyncio.sleep(wait)
            wait = door.guesses.begin(self._address, door.clock())
        if wait > 0:
            # Not looked at: trying it is the guess the wait is for. The banner tells a
            # person why a right password was refused (OpenSSH prints it).
            door.quiet_log(logging.WARNING, "guess-throttled",
                           "refused an SSH password from %s unread: too many wrong ones",
                           self._address)
            door.preauth.strike(self._address, door.clock())
            if self._conn is not None:
                door.preauth.set_stage(self._conn, GUESSING, math.inf)
                with contextlib.suppress(OSError):
                    self._conn.send_auth_banner(
                        f"Too many wrong passwords from your address: wait {math.ceil(wait)}"
                        f" s, then try again.\r\n")
            return False
        right = bool(expected) and hmac.compare_digest(password.encode(), expected.encode())
        door.guesses.finish(self._address, right, door.clock())
        if not right:
            door.preauth.strike(self._address, door.clock())
            if self._conn is not None:
                door.preauth.set_stage(self._conn, GUESSING, math.inf)
            door.quiet_log(logging.WARNING, "wrong-password", "wrong SSH door password from %s",
                           self._address)
        return right

    def session_requested(self) -> DoorSession:
        door = self._door
        if len(door.sessions) >= door.config.max_sessions:
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_RESOURCE_SHORTAGE,
                f"the door is full ({door.config.max_sessions} sessions); try again later",
            )
        session = DoorSession(door, self._username)
        door.sessions.add(session)
        return session

    # Port forwarding in either direction is refused: the door reaches the app only.
    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        log.info("refused port forwarding to %s:%s", dest_host, dest_port)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("refused remote port forwarding from %s:%s", listen_host, listen_port)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False


class SSHDoor:
    """The SSH server of one table. Use start_ssh_door(), then close() when the table ends."""

    def __init__(self, config: DoorConfig,
                 clock: Callable[[], float] = time.monotonic) -> None:
        config.validate()
        self.config = config
        self.idle_timeout = config.idle_timeout
        # The door's own timers and limits read this clock (tests may pass a fake one).
        self.clock = clock
        self.sessions: set[DoorSession] = set()
        self._players: dict[str, DoorSession] = {}
        # Every open connection; those not logged in yet are also in the admission pool.
        self._connections: set[asyncssh.SSHServerConnection] = set()
        self._logged_in_connections: set[asyncssh.SSHServerConnection] = set()
        self.preauth: AdmissionPool[asyncssh.SSHServerConnection] = AdmissionPool(
            config.preauth_per_address, config.preauth_cap, protect_for=PROTECTED_FOR,
            protect_from_stage=SPEAKING)
        self.guesses = GuessThrottle(config.guesses, now=clock())
        self.descriptors = DescriptorBudget(clock, reserve=config.descriptor_reserve)
        self._log = QuietLog(log)
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._watch: asyncio.Task[None] | None = None
        self._host_key: asyncssh.SSHKey | None = None

    async def start(self) -> None:
        """Load (or make) the host key and start listening."""
        asyncssh_log = logging.getLogger("asyncssh")
        if asyncssh_log.level == logging.NOTSET:
            # asyncssh logs every connection and channel at INFO: too much beside a table's log.
            asyncssh_log.setLevel(logging.WARNING)
        # A user name is a player name: 🎲Zoë must get in (see user_names.py).
        accept_any_unicode_user_name()
        self._host_key = load_or_create_host_key(self.config.host_key_path)
        self._acceptor = await asyncssh.listen(
            self.config.bind_host or None,
            self.config.port,
            server_factory=lambda: _DoorServer(self),
            server_host_keys=[self._host_key],
            authorized_client_keys=(
                str(self.config.authorized_keys) if self.config.authorized_keys else None
            ),
            encoding=None,
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            sftp_factory=None,
            kbdint_auth=False,
            gss_host=None,
            host_based_auth=False,
            login_timeout=self.config.login_timeout,
            keepalive_interval=30,
            keepalive_count_max=3,
        )
        self._watch = asyncio.create_task(self._watch_connections(), name="ssh-door-watch")
        log.info("SSH door listening on port %d", self.port)

    @property
    def port(self) -> int:
        """The TCP port the door listens on."""
        if self._acceptor is None:
            raise RuntimeError("the SSH door has not been started")
        return self._acceptor.get_port()

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, for players to check on first connect."""
        if self._host_key is None:
            raise RuntimeError("the SSH door has not been started")
        return fingerprint(self._host_key)

    def ssh_command(self, host: str, player: str = "NAME") -> str:
        """The line to give friends: `ssh -p PORT NAME@HOST`."""
        return ssh_command_line(host, self.port, player)

    async def close(self) -> None:
        """Stop accepting, end every session (their seats are then held as for a drop)."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
        sessions = list(self.sessions)
        await asyncio.gather(
            *(session.end(N_("the table has closed.")) for session in sessions),
            return_exceptions=True,
        )
        # Let each client take the terminal reset and the reason before its connection is
        # closed under it: ssh on a terminal showed only the frozen app otherwise.
        await asyncio.gather(*(session.wait_closed() for session in sessions),
                             return_exceptions=True)
        for conn in list(self._connections):
            conn.close()
        for conn in list(self._connections):
            await conn.wait_closed()
        self._log.close(self.clock())

    async def __aenter__(self) -> SSHDoor:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- bookkeeping used by _DoorServer and DoorSession --------------------------------

    def quiet_log(self, level: int, kind: str, message: str, *args: object) -> None:
        """A line about what a client does: one per kind a minute, with a count."""
        self._log.log(self.clock(), level, kind, message, *args)

    def _connection_opened(self, conn: asyncssh.SSHServerConnection, address: str) -> None:
        self._connections.add(conn)
        if not self.descriptors.room():
            self.quiet_log(logging.ERROR, "descriptors", "SSH connection from %s refused, to "
                           "keep %d file descriptors free for the table", address,
                           self.descriptors.reserve)
            self._drop(conn, "the host is busy; try again in a moment")
            return
        now = self.clock()
        admission = self.preauth.admit(conn, address, now, now + self.config.silent_timeout,
                                       SILENT)
        for victim in admission.displaced:
            self.quiet_log(logging.WARNING, "displaced",
                           "SSH door full of connections not logged in: %s", admission.reason)
            self._drop(victim, "the door is busy; try again")
        if not admission.admitted:
            self.quiet_log(logging.WARNING, "refused", "SSH connection from %s refused: %s",
                           address, admission.reason)
            self._drop(conn, "the door is busy; try again in a moment")

    def _drop(self, conn: asyncssh.SSHServerConnection, reason: str) -> None:
        # Later, not now: asyncssh is in the middle of setting the connection up.
        def drop() -> None:
            with contextlib.suppress(Exception):
                conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)

        self.preauth.forget(conn)
        asyncio.get_running_loop().call_soon(drop)

    def _authenticating(self, conn: asyncssh.SSHServerConnection) -> None:
        # asyncssh's login timeout is its deadline now: its user may be typing.
        self.preauth.advance(conn, AUTHENTICATING, math.inf)
        if len(self._logged_in_connections) >= self.config.connection_cap:
            # Refused before it logs in: its client is told why, not "permission denied".
            self.quiet_log(logging.WARNING, "too-many-logins",
                           "an SSH login refused: %d connections are logged in already",
                           self.config.connection_cap)
            self._drop(conn, "too many connections at this door; try again later")

    def _logged_in(self, conn: asyncssh.SSHServerConnection) -> None:
        self.preauth.forget(conn)
        self._logged_in_connections.add(conn)

    def _connection_closed(self, conn: asyncssh.SSHServerConnection) -> None:
        self._connections.discard(conn)
        self._logged_in_connections.discard(conn)
        self.preauth.forget(conn)

    async def _watch_connections(self) -> None:
        """Move connections that spoke SSH on, close those that stayed silent, and write
        the log's counts."""
        while True:
            await asyncio.sleep(_TICK)
            self.check_connections(self.clock())

    def check_connections(self, now: float) -> None:
        """One look at the connections not logged in (the door's timer calls it)."""
        for conn in list(self.preauth.at_stage(SILENT)):
            if conn.get_extra_info("client_version"):
                # A real client: asyncssh's login timeout is its deadline from now on.
                self.preauth.advance(conn, SPEAKING, math.inf)
        for conn in self.preauth.expired(now):
            self.quiet_log(logging.INFO, "silent", "closed an SSH connection that sent "
                           "nothing for %g s", self.config.silent_timeout)
            self._drop(conn, "nothing was heard from this connection")
        self._log.flush(now)

    async def claim_player(self, session: DoorSession, player: str) -> str | None:
        """Reserve *player* for *session*; return why not, or None when granted.

        A name already in use is taken over: the usual reason is a player whose network
        died coming back before the door noticed (keepalives take up to two minutes).
        The old session's app is stopped first, so the two never share the saved seat.
        """
        problem = player_name_problem(player, session.words)
        if problem is not None:
            return problem
        holder = self._players.get(player)
        if holder is not None and holder is not session:
            log.info("%s connected again; closing their previous session", player)
            self._players[player] = session
            await holder.end(N_("{player} connected again from elsewhere; this session is "
                                "closed."), player=player)
        self._players[player] = session
        return None

    def child_argv(self, player: str, *, plain: bool = False) -> Sequence[str]:
        """The command line of the app for *player* (line mode when `plain`)."""
        if self.config.command is not None:
            command = list(self.config.command(player))
            return [*command, "--plain"] if plain else command
        return join_command(self.config.table_address, player, plain=plain)

    def child_env(self, player: str, term: str, client_env: Mapping[str, str]) -> dict[str, str]:
        """The app's environment: a minimal one, plus what describes the player's terminal.

        Each player gets a config directory of their own, so a returning player resumes
        their own seat with the token saved there, never someone else's.
        """
        env = {name: os.environ[name] for name in _INHERITED_ENV if name in os.environ}
        env.update(
            {name: value for name, value in client_env.items() if name in _CLIENT_ENV and value}
        )
        env.setdefault("LANG", _DEFAULT_LANG)
        env["TERM"] = term
        player_config = self.config.players_dir / player_dir_name(player)
        player_config.mkdir(mode=0o700, parents=True, exist_ok=True)
        env[CONFIG_DIR_ENV] = str(player_config)
        env["ONO99_SSH_DOOR"] = "1"
        env.update(self.config.extra_env)
        return env

    def session_ended(self, session: DoorSession) -> None:
        """Forget *session* and free its player name."""
        self.sessions.discard(session)
        if self._players.get(session.player) is session:
            del self._players[session.player]


async def start_ssh_door(config: DoorConfig) -> SSHDoor:
    """Start the SSH door described by *config* and return it (call close() to stop it)."""
    door = SSHDoor(config)
    await door.start()
    return door
