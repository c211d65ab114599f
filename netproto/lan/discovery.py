"""Finding tables on the LAN: DNS-SD over mDNS with zeroconf's asyncio API.

A host advertises its table as one `_ono99._tcp.local.` service instance whose TXT record
carries a `TableInfo`; browsers turn what they hear into a live stream of added, updated
and removed tables. docs/DISCOVERY.md documents the TXT keys and the timings.

Everything here runs on the caller's asyncio event loop and only on the interfaces it is
given (see `netproto.lan.interfaces`): zeroconf would otherwise use every interface.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import ipaddress
import logging
import re
import secrets
import socket
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self, TypeGuard

from zeroconf import DNSQuestionType, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from netproto.wire.messages import TablePhase

log = logging.getLogger(__name__)

SERVICE_TYPE = "_ono99._tcp.local."
# Version of the TXT layout (DNS-SD `txtvers`): bumped only for incompatible changes; new
# optional keys keep it, since readers ignore keys they do not know.
TXT_VERSION = 1
# Longest table, player or rules name accepted, in characters: four bytes each at worst
# keeps every "key=value" TXT string under DNS's 255-byte limit.
MAX_TEXT_LENGTH = 48
MAX_SEATS = 64
# DNS-SD instance names are at most 63 bytes; leave room for zeroconf's "-N" rename suffix.
_MAX_INSTANCE_NAME_BYTES = 56
_RESOLVE_TIMEOUT_SECONDS = 3.0
_DIGITS = re.compile(r"[0-9]{1,5}")
_SEATS = re.compile(r"([0-9]{1,2})/([0-9]{1,2})")
# Control, format, surrogate, private-use, unassigned, line and paragraph separators: a
# name must never smuggle terminal escape sequences or bidi tricks into someone's screen.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class InvalidTableInfo(ValueError):
    """A `TableInfo` field is out of range or holds characters a name may not have."""


class MalformedAdvertisement(ValueError):
    """A service on the network has a TXT record or address that is not a valid table."""


# Where the table's game stands, as advertised: the same vocabulary as the lobby's phase.
TableState = TablePhase


@dataclass(frozen=True)
class TableInfo:
    """What the LAN is told about one table: the TXT fields, the port and the addresses.

    `addresses` may be left empty when advertising: the advertiser then uses the
    addresses of the interfaces it advertises on. `ssh_port` is set only when the table
    also offers an SSH door, `web_port` only when it offers a web door.
    """

    protocol_version: int
    name: str
    host_player: str
    rules: str
    seats_taken: int
    seats_total: int
    state: TableState
    password_required: bool
    port: int
    addresses: tuple[str, ...] = ()
    ssh_port: int | None = None
    web_port: int | None = None

    def __post_init__(self) -> None:
        for field_name in ("protocol_version", "seats_taken", "seats_total"):
            if not _is_int(getattr(self, field_name)):
                raise InvalidTableInfo(f"{field_name} must be an integer")
        if not 0 <= self.protocol_version <= 65535:
            raise InvalidTableInfo(f"protocol version {self.protocol_version!r} out of range")
        for field_name in ("name", "host_player", "rules"):
            _check_text(field_name, getattr(self, field_name))
        if not isinstance(self.password_required, bool):
            raise InvalidTableInfo("password_required must be true or false")
        if not 1 <= self.seats_total <= MAX_SEATS:
            raise InvalidTableInfo(f"seats_total must be 1..{MAX_SEATS}, not {self.seats_total}")
        if not 0 <= self.seats_taken <= self.seats_total:
            raise InvalidTableInfo(
                f"seats_taken must be 0..{self.seats_total}, not {self.seats_taken}"
            )
        object.__setattr__(self, "state", TableState(self.state))
        _check_port("port", self.port)
        if self.ssh_port is not None:
            _check_port("ssh_port", self.ssh_port)
        if self.web_port is not None:
            _check_port("web_port", self.web_port)
        object.__setattr__(self, "addresses", tuple(_ipv4(a) for a in self.addresses))

    def txt_properties(self) -> dict[str, str]:
        """The TXT record's key/value pairs (see docs/DISCOVERY.md for each key)."""
        properties = {
            "txtvers": str(TXT_VERSION),
            "proto": str(self.protocol_version),
            "table": self.name,
            "host": self.host_player,
            "rules": self.rules,
            "seats": f"{self.seats_taken}/{self.seats_total}",
            "state": self.state.value,
            "pw": "1" if self.password_required else "0",
        }
        if self.ssh_port is not None:
            properties["ssh"] = str(self.ssh_port)
        if self.web_port is not None:
            properties["web"] = str(self.web_port)
        return properties

    @classmethod
    def from_txt(
        cls, properties: Mapping[bytes, bytes | None], port: int, addresses: Sequence[str]
    ) -> TableInfo:
        """Rebuild a TableInfo from a TXT record heard on the network.

        Raises `MalformedAdvertisement` for a missing key, a value that is not UTF-8 or
        not of its key's form, or a field out of range. Unknown keys are ignored.
        """
        txt = _decode_txt(properties)
        if txt.get("txtvers") != str(TXT_VERSION):
            raise MalformedAdvertisement(f"unsupported TXT version {txt.get('txtvers')!r}")
        seats = _SEATS.fullmatch(_required(txt, "seats"))
        if seats is None:
            raise MalformedAdvertisement("seats must be TAKEN/TOTAL")
        password = _required(txt, "pw")
        if password not in ("0", "1"):
            raise MalformedAdvertisement("pw must be 0 or 1")
        state = _required(txt, "state")
        if state not in {member.value for member in TableState}:
            raise MalformedAdvertisement(f"unknown state {state!r}")
        try:
            return cls(
                protocol_version=_number(txt, "proto"),
                name=_required(txt, "table"),
                host_player=_required(txt, "host"),
                rules=_required(txt, "rules"),
                seats_taken=int(seats.group(1)),
                seats_total=int(seats.group(2)),
                state=TableState(state),
                password_required=password == "1",
                port=port,
                addresses=tuple(addresses),
                ssh_port=_number(txt, "ssh") if "ssh" in txt else None,
                web_port=_number(txt, "web") if "web" in txt else None,
            )
        except InvalidTableInfo as error:
            raise MalformedAdvertisement(str(error)) from error


@dataclass(frozen=True)
class DiscoveredTable:
    """A table heard on the network; `service_name` tells apart tables with the same name."""

    service_name: str
    info: TableInfo

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: `service_name` plus every TableInfo field."""
        fields = dataclasses.asdict(self.info)
        fields["state"] = self.info.state.value
        fields["addresses"] = list(self.info.addresses)
        return {"service_name": self.service_name, **fields}


class TableChange(enum.Enum):
    """What happened to a table."""

    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"


@dataclass(frozen=True)
class TableEvent:
    """One change in the set of tables; for REMOVED, `table` is its last known state."""

    change: TableChange
    table: DiscoveredTable


class TableAdvertiser:
    """Advertises one table on the given interfaces for as long as it is open.

    Use as `async with TableAdvertiser(info, interfaces) as advertiser:`; leaving the
    block by any path (return, exception, task cancellation from Ctrl-C or SIGTERM)
    sends the goodbye packets that remove the table from every browser. When another
    table already has the same instance name, zeroconf renames this one ("Name-2");
    `service_name` gives the name finally used.
    """

    def __init__(
        self,
        info: TableInfo,
        interfaces: Sequence[str],
        *,
        service_type: str = SERVICE_TYPE,
    ) -> None:
        if not interfaces:
            raise ValueError("advertising needs at least one interface address")
        self._info = info
        self._interfaces = [_ipv4(address) for address in interfaces]
        self._service_type = service_type
        self._service_name = f"{_instance_label(info.name)}.{service_type}"
        self._server = f"{_host_label()}-{secrets.token_hex(3)}.local."
        self._zeroconf: AsyncZeroconf | None = None
        self._registered: AsyncServiceInfo | None = None
        self._broadcasts: set[asyncio.Future[Any]] = set()
        self._lock = asyncio.Lock()
        self._closed = False

    @property
    def info(self) -> TableInfo:
        """The table as last advertised (or to be advertised)."""
        return self._info

    @property
    def service_name(self) -> str:
        """The full service instance name, including any rename after a conflict."""
        return self._service_name

    @property
    def addresses(self) -> tuple[str, ...]:
        """The addresses put in the A records."""
        return self._info.addresses or tuple(self._interfaces)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Probe for a unique name (about a second, as mDNS requires) and announce the table."""
        async with self._lock:
            if self._closed or self._zeroconf is not None:
                raise RuntimeError("a TableAdvertiser can be started only once")
            self._zeroconf = AsyncZeroconf(
                interfaces=list(self._interfaces), ip_version=IPVersion.V4Only
            )
            service = self._service_info(self._info)
            try:
                announce = await self._zeroconf.async_register_service(
                    service, allow_name_change=True
                )
            except BaseException:
                await self._close_zeroconf()
                raise
            self._registered = service
            self._service_name = service.name
            self._track(announce)
            log.info("advertising %s on %s", self._service_name, ", ".join(self._interfaces))

    async def update(self, info: TableInfo) -> None:
        """Advertise new table details (seats, state...); a no-op when nothing changed or closed."""
        async with self._lock:
            if self._closed or info == self._info:
                return
            self._info = info
            if self._zeroconf is None or self._registered is None:
                return
            service = self._service_info(info, name=self._service_name)
            self._track(await self._zeroconf.async_update_service(service))
            self._registered = service

    async def close(self) -> None:
        """Withdraw the table (goodbye packets) and release the sockets; safe to call twice."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            for broadcast in list(self._broadcasts):
                broadcast.cancel()
            if self._zeroconf is None:
                return
            try:
                if self._registered is not None:
                    goodbye = await self._zeroconf.async_unregister_service(self._registered)
                    _drop_queued_answers(self._zeroconf.zeroconf)
                    await goodbye
            finally:
                self._registered = None
                await self._close_zeroconf()
                log.info("stopped advertising %s", self._service_name)

    def _service_info(self, info: TableInfo, name: str | None = None) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            self._service_type,
            name or self._service_name,
            port=info.port,
            properties=info.txt_properties(),
            server=self._server,
            parsed_addresses=list(info.addresses or self._interfaces),
        )

    def _track(self, awaitable: Awaitable[Any]) -> None:
        # zeroconf hands back the future of its re-broadcasts; keep it so close() can stop it.
        broadcast = asyncio.ensure_future(awaitable)
        self._broadcasts.add(broadcast)
        broadcast.add_done_callback(self._broadcasts.discard)

    async def _close_zeroconf(self) -> None:
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is not None:
            await zeroconf.async_close()


class TableBrowser:
    """A live view of the tables advertised on the given interfaces.

    Open it with `async with TableBrowser(interfaces) as browser:`; then read `tables`
    (the current set), iterate `browser.events()`, and/or pass `on_change` to be called
    with each `TableEvent`. A table is reported only once its details are resolved,
    and a service whose TXT record is malformed is never reported.
    """

    def __init__(
        self,
        interfaces: Sequence[str],
        *,
        on_change: Callable[[TableEvent], None] | None = None,
        service_type: str = SERVICE_TYPE,
        resolve_timeout: float = _RESOLVE_TIMEOUT_SECONDS,
    ) -> None:
        if not interfaces:
            raise ValueError("browsing needs at least one interface address")
        self._interfaces = [_ipv4(address) for address in interfaces]
        self._on_change = on_change
        self._service_type = service_type
        self._resolve_timeout_ms = resolve_timeout * 1000
        self._tables: dict[str, DiscoveredTable] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}
        # Names zeroconf has reported added and not yet removed. zeroconf reports an "update"
        # for any fresh SRV/TXT/A record of a name, even one whose PTR is gone (a late answer
        # from a host that has just left): resolving it would bring a withdrawn table back.
        self._present: set[str] = set()
        self._subscribers: set[asyncio.Queue[TableEvent | None]] = set()
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._closed = False

    @property
    def tables(self) -> dict[str, DiscoveredTable]:
        """The tables known now, by service name (a copy)."""
        return dict(self._tables)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Open the mDNS sockets and start querying."""
        if self._closed or self._zeroconf is not None:
            raise RuntimeError("a TableBrowser can be started only once")
        self._zeroconf = AsyncZeroconf(
            interfaces=list(self._interfaces), ip_version=IPVersion.V4Only
        )
        # QM (multicast-answer) questions from the start: a QU first query asks for a
        # unicast reply, which on one machine may land on another process's port-5353
        # socket, delaying the answer by a second (measured, see docs/DISCOVERY.md).
        self._browser = AsyncServiceBrowser(
            self._zeroconf.zeroconf,
            self._service_type,
            handlers=[self._on_service_state_change],
            question_type=DNSQuestionType.QM,
        )

    async def close(self) -> None:
        """Stop browsing, release the sockets and end every `events()` iterator."""
        if self._closed:
            return
        self._closed = True
        tasks = list(self._resolving.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        try:
            if self._browser is not None:
                await self._browser.async_cancel()
        finally:
            if self._zeroconf is not None:
                await self._zeroconf.async_close()
            for queue in self._subscribers:
                queue.put_nowait(None)

    def events(self) -> AsyncIterator[TableEvent]:
        """An ADDED event for each table known now, then every change until the browser closes.

        The subscription starts at this call, so nothing is missed between the call and
        the first iteration.
        """
        queue: asyncio.Queue[TableEvent | None] = asyncio.Queue()
        if self._closed:
            queue.put_nowait(None)
        else:
            for table in self._tables.values():
                queue.put_nowait(TableEvent(TableChange.ADDED, table))
            self._subscribers.add(queue)
        return self._drain(queue)

    async def _drain(self, queue: asyncio.Queue[TableEvent | None]) -> AsyncIterator[TableEvent]:
        try:
            while (event := await queue.get()) is not None:
                yield event
        finally:
            self._subscribers.discard(queue)

    def _on_service_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        # Called by zeroconf on the event loop: never block here, resolve in a task.
        if self._closed:
            return
        previous = self._resolving.pop(name, None)
        if previous is not None:
            previous.cancel()
        if state_change is ServiceStateChange.Removed:
            self._present.discard(name)
            self._forget(name)
            return
        if state_change is ServiceStateChange.Added:
            self._present.add(name)
        elif name not in self._present:
            return  # an update for a table already withdrawn
        task = asyncio.create_task(self._resolve(zeroconf, service_type, name))
        self._resolving[name] = task
        task.add_done_callback(lambda done: self._resolve_done(name, done))

    def _resolve_done(self, name: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(name) is task:
            del self._resolving[name]
        if not task.cancelled() and task.exception() is not None:
            log.error("resolving %s failed", name, exc_info=task.exception())

    async def _resolve(self, zeroconf: Zeroconf, service_type: str, name: str) -> None:
        service = AsyncServiceInfo(service_type, name)
        if not await service.async_request(
            zeroconf, self._resolve_timeout_ms, question_type=DNSQuestionType.QM
        ):
            log.debug("no complete answer for %s", name)
            return
        try:
            info = TableInfo.from_txt(
                service.properties,
                port=service.port or 0,
                addresses=service.parsed_addresses(IPVersion.V4Only),
            )
        except MalformedAdvertisement as error:
            log.warning("ignoring %s: %s", name, error)
            self._forget(name)
            return
        table = DiscoveredTable(name, info)
        known = self._tables.get(name)
        if known == table:
            return
        self._tables[name] = table
        self._emit(TableEvent(TableChange.ADDED if known is None else TableChange.UPDATED, table))

    def _forget(self, name: str) -> None:
        table = self._tables.pop(name, None)
        if table is not None:
            self._emit(TableEvent(TableChange.REMOVED, table))

    def _emit(self, event: TableEvent) -> None:
        for queue in self._subscribers:
            queue.put_nowait(event)
        if self._on_change is not None:
            try:
                self._on_change(event)
            except Exception:
                # A faulty listener must not stop discovery for the others.
                log.exception("table change listener failed on %s", event)


async def find_tables(interfaces: Sequence[str], timeout: float) -> list[DiscoveredTable]:
    """Browse for `timeout` seconds and return the tables found, sorted by name."""
    async with TableBrowser(interfaces) as browser:
        await asyncio.sleep(timeout)
        tables = browser.tables
    return sorted(
        tables.values(), key=lambda table: (table.info.name.casefold(), table.service_name)
    )


def _drop_queued_answers(zeroconf: Zeroconf) -> None:
    """Forget the multicast answers `zeroconf` has queued and not sent yet.

    zeroconf holds a multicast answer back 20-120 ms (a second more for a record it sent
    in the last second: RFC 6762 §6 and §14) and sends it even if the service is
    unregistered meanwhile. A question from another lobby just before the goodbye was
    then answered between the goodbyes, with the full 75-minute TTL: every lobby added
    the withdrawn table back and kept it, because a browser ignores a packet identical to
    one it heard in the last 0.8 s, so the goodbye's two repeats were dropped. The
    advertiser's zeroconf serves only its own table: everything queued is about it.
    """
    for outgoing in (zeroconf.out_queue, zeroconf.out_delay_queue):
        outgoing.queue.clear()


def _check_text(field_name: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise InvalidTableInfo(f"{field_name} must be a non-empty string")
    if len(value) > MAX_TEXT_LENGTH:
        raise InvalidTableInfo(f"{field_name} may have at most {MAX_TEXT_LENGTH} characters")
    for char in value:
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            raise InvalidTableInfo(f"{field_name} contains the unprintable character {char!r}")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_port(field_name: str, value: object) -> None:
    if not _is_int(value) or not 1 <= value <= 65535:
        raise InvalidTableInfo(f"{field_name} must be 1..65535, not {value!r}")


def _ipv4(address: str) -> str:
    try:
        return str(ipaddress.IPv4Address(address))
    except ValueError as error:
        raise InvalidTableInfo(f"{address!r} is not an IPv4 address") from error


def _decode_txt(properties: Mapping[bytes, bytes | None]) -> dict[str, str]:
    txt: dict[str, str] = {}
    for key, value in properties.items():
        try:
            text_key = key.decode("ascii").lower()
            text_value = value.decode("utf-8") if value is not None else None
        except UnicodeDecodeError as error:
            raise MalformedAdvertisement(f"TXT entry {key!r} is not valid text") from error
        if text_value is not None:
            txt[text_key] = text_value
    return txt


def _required(txt: Mapping[str, str], key: str) -> str:
    try:
        return txt[key]
    except KeyError:
        raise MalformedAdvertisement(f"TXT record lacks {key!r}") from None


def _number(txt: Mapping[str, str], key: str) -> int:
    value = _required(txt, key)
    if _DIGITS.fullmatch(value) is None:
        raise MalformedAdvertisement(f"{key} must be a number, not {value!r}")
    return int(value)


def _instance_label(table_name: str) -> str:
    """The table name cut to fit a DNS-SD instance label, at a character boundary."""
    encoded = table_name.strip().encode("utf-8")[:_MAX_INSTANCE_NAME_BYTES]
    return encoded.decode("utf-8", errors="ignore").strip()


def _host_label() -> str:
    """This machine's name reduced to a DNS host label (letters, digits, hyphens)."""
    label = re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().lower()).strip("-")[:40]
    return label or "ono99-host"
