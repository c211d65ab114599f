"""A table's journal on disk: an append-only file of checksummed records.

Why a file of our own and not a database: the journal is written once per applied move and
read only at start-up (restart resume) or by tools (replays, standings), so an append-only
log with one `write` per record is the whole need, and it costs one system call per move.

Layout (docs/PROTOCOL.md, "The journal file"):

    MAGIC (8 bytes) · version (1 byte) · records…
    record = length (4 bytes, big-endian) · CRC-32 of the payload (4 bytes) · payload

The payload is one msgpack map with a "kind" key; the table decides the kinds (a match
header, one record per applied move or resignation, a match end). A record is written with
a single `os.write` on an unbuffered descriptor before the move's views go out, so after a
`kill -9` of the host it is either on disk whole or is the torn last record, which
`read_journal` detects and drops (and `JournalWriter` cuts away before appending, keeping
the cut bytes in a side file `NAME.cut-OFFSET`, in case they were more than a torn write). Records
are not `fsync`ed one by one: a power cut may lose the last moves, a killed process loses
none.

Files are created readable by their owner only (they hold hashes of resume tokens).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from netproto.sessions import token_digest

MAGIC = b"ONO99JNL"
JOURNAL_VERSION = 1
SUFFIX = ".journal"
_HEADER = struct.Struct(">II")  # payload length, CRC-32 of the payload
# A record is a match header or one move: far below this. A larger length is corruption.
MAX_RECORD_SIZE = 1 << 20


class JournalError(Exception):
    """A journal file cannot be read as one; the message names the file and what is wrong."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class NotAJournal(JournalError):
    """The file does not start like a journal."""


class JournalTooNew(JournalError):
    """The journal was written by a newer ono99 (a format version this one does not know)."""


class JournalCorrupt(JournalError):
    """A record before the last one is damaged: nothing after it can be trusted."""


class JournalInUse(Exception):
    """Another running process has the journal open for appending (a table of the same
    name is already hosted on this machine)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: another running ono99 host is writing this journal")
        self.path = path


@dataclass(frozen=True)
class JournalContents:
    """What a journal file holds: its whole records, in order, and whether a torn last
    record was dropped (the host was killed while writing it)."""

    records: tuple[dict[str, Any], ...]
    torn_tail: bool = False
    # Where the whole records end: an append continues here.
    end_offset: int = 0


def token_hash(token: str) -> str:
    """What the journal keeps of a resume token: its SHA-256, never the token itself
    (netproto's `token_digest`, which a `SessionRegistry` can `adopt`)."""
    return token_digest(token)


def journal_path(directory: Path, table_name: str) -> Path:
    """The journal file of the table called `table_name` (one file per table name).

    The file name keeps a readable part of the name and a hash of all of it, so that two
    names that differ only in characters a file name cannot hold get two files.
    """
    readable = re.sub(r"[^A-Za-z0-9_-]+", "-", table_name).strip("-")[:40] or "table"
    digest = hashlib.sha256(table_name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return directory / "tables" / f"{readable}-{digest}{SUFFIX}"


def _pack(record: dict[str, Any]) -> bytes:
    payload: bytes = msgpack.packb(record, use_bin_type=True)
    if len(payload) > MAX_RECORD_SIZE:
        raise ValueError(f"a journal record of {len(payload)} bytes is over the limit")
    return _HEADER.pack(len(payload), zlib.crc32(payload)) + payload


def _frames(path: Path, data: bytes) -> tuple[list[tuple[int, int]], bool]:
    """(offset, end) of each record whose length and checksum are whole, in order, and
    whether a torn last record follows them. Raises JournalCorrupt for damage before the
    last record. Nothing is unpacked here: a table's file holds hundreds of thousands of
    records and a restart needs only its last match's."""
    frames: list[tuple[int, int]] = []
    view = memoryview(data)
    size, offset = len(data), len(MAGIC) + 1
    unpack_header, header_size, crc32 = _HEADER.unpack_from, _HEADER.size, zlib.crc32
    while offset < size:
        if size - offset < header_size:
            return frames, True
        length, checksum = unpack_header(data, offset)
        end = offset + header_size + length
        if length > MAX_RECORD_SIZE:
            raise JournalCorrupt(path, f"a record at byte {offset} claims {length} bytes")
        if end > size:
            return frames, True  # cut short: the last write did not finish
        if crc32(view[offset + header_size:end]) != checksum:
            if end == size:
                return frames, True  # the last record is damaged: a torn write
            raise JournalCorrupt(path, f"the record at byte {offset} fails its checksum")
        frames.append((offset, end))
        offset = end
    return frames, False


def _decode(path: Path, data: bytes, offset: int, end: int) -> dict[str, Any] | str:
    """The record framed at `offset`, or what is wrong with it."""
    try:
        record = msgpack.unpackb(data[offset + _HEADER.size:end], raw=False,
                                 strict_map_key=True)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        return f"the record at byte {offset} is not msgpack ({error})"
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        return f"the record at byte {offset} has no kind"
    return record


def read_journal(path: Path, since_kind: str | None = None) -> JournalContents:
    """Every whole record of the journal at `path`; raises JournalError (or OSError).

    `since_kind`: only the records from the last one of that kind on (all of them if there
    is none), e.g. a table's last match; the others are checked but not unpacked.
    """
    data = path.read_bytes()
    if len(data) < len(MAGIC) + 1 or not data.startswith(MAGIC):
        if MAGIC.startswith(data):  # created, then killed before its header was whole
            return JournalContents(records=(), torn_tail=bool(data), end_offset=0)
        raise NotAJournal(path, "this is not an ono99 journal file")
    version = data[len(MAGIC)]
    if version > JOURNAL_VERSION:
        raise JournalTooNew(path, f"journal format {version} is newer than this ono99 reads "
                                  f"({JOURNAL_VERSION}); update ono99 to read it")
    frames, torn = _frames(path, data)
    records: list[dict[str, Any]] = []
    last = len(frames) - 1
    for index in range(last, -1, -1):  # newest first, to stop at `since_kind`
        offset, end = frames[index]
        record = _decode(path, data, offset, end)
        if isinstance(record, str):
            if index < last:
                raise JournalCorrupt(path, record)
            del frames[index:]  # a damaged last record is a torn write
            torn = True
            continue
        records.append(record)
        if since_kind is not None and record["kind"] == since_kind:
            break
    records.reverse()
    end_offset = frames[-1][1] if frames else len(MAGIC) + 1
    return JournalContents(records=tuple(records), torn_tail=torn, end_offset=end_offset)


def cut_tail_path(path: Path, offset: int) -> Path:
    """Where the bytes cut away from `path` at `offset` are kept (beside the journal)."""
    return path.with_name(f"{path.name}.cut-{offset}")


def _keep_cut_tail(path: Path, descriptor: int, offset: int) -> None:
    """Copy what follows the last whole record to a private side file before it is cut.

    A torn write is shorter than one record, but a record whose length field was damaged
    on disk reads the same way ("cut short") and would take every later record with it;
    the side file keeps those bytes, so a truncation never destroys a match for good.
    """
    size = os.fstat(descriptor).st_size
    if size <= offset:
        return
    tail = os.pread(descriptor, size - offset, offset)
    side = os.open(cut_tail_path(path, offset), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(side, tail)
    finally:
        os.close(side)


@dataclass
class JournalWriter:
    """Appends records to one journal file (see the module docstring)."""

    path: Path
    _descriptor: int = field(default=-1, repr=False)
    # Where the whole records end (the file's size while every append succeeds).
    end: int = 0

    @classmethod
    def open(cls, path: Path,
             since_kind: str | None = None) -> tuple[JournalWriter, JournalContents]:
        """Open (creating it, private) the journal at `path` for appending, after cutting
        away a torn last record; also returns what it already held (from the last record
        of `since_kind` on, as `read_journal`). Raises JournalError, or JournalInUse when
        another process has it open."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            # One writer per file: a second host of the same table name must neither
            # append to it nor take up the first one's match. The lock goes with the
            # process, so a killed host's restart gets it at once.
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise JournalInUse(path) from None
            contents = read_journal(path, since_kind)
            if contents.end_offset == 0:  # new (or its header was torn): start it
                os.ftruncate(descriptor, 0)
                os.write(descriptor, MAGIC + bytes([JOURNAL_VERSION]))
                contents = JournalContents(records=(), torn_tail=contents.torn_tail,
                                           end_offset=len(MAGIC) + 1)
            elif contents.torn_tail:
                _keep_cut_tail(path, descriptor, contents.end_offset)
                os.ftruncate(descriptor, contents.end_offset)
        except BaseException:
            os.close(descriptor)
            raise
        return cls(path=path, _descriptor=descriptor, end=contents.end_offset), contents

    def append(self, record: dict[str, Any]) -> None:
        """Write one record with a single system call (whole on disk, or a torn tail)."""
        frame = _pack(record)
        written = os.write(self._descriptor, frame)
        if written != len(frame):  # a full disk: what was written is a torn tail now
            raise OSError(f"{self.path}: only {written} of {len(frame)} bytes written")
        self.end += written

    def truncate(self, offset: int) -> None:
        """Cut the file back to `offset` (a record boundary), dropping what follows."""
        os.ftruncate(self._descriptor, offset)
        self.end = offset

    def close(self) -> None:
        """Close the file (records already appended stay)."""
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1
