"""A table's journal on disk: an append-only file of checksummed records.

Why a file of our own and not a database: the journal is written once per applied move and
read only at start-up (restart resume) or by tools (replays, standings), so an append-only
log with one `write` per record is the whole need, and it costs one system call per move.

Layout (docs/JOURNAL.md):

    MAGIC (8 bytes) · version (1 byte) · records…
    record = length (4 bytes, big-endian) · CRC-32 of the payload (4 bytes) · payload

The payload is one msgpack map with a "kind" key; the table decides the kinds (a match
header, one record per applied move or resignation, a match end). A record is written with
a single `os.write` on an unbuffered descriptor before the move's views go out, so after a
`kill -9` of the host it is either on disk whole or is the torn last record, which
`read_journal` detects and drops (and `JournalWriter` cuts away before appending). A torn
record is at most one record: bytes that hold a whole record after a damaged length are
damage, never a torn write, and are refused (`JournalCorrupt`) rather than cut away.

Beside the journal, its **end mark** (`NAME.end`, `EndMark`) says how long the writer left
the journal and whether a match could not be written in full: the journal alone cannot tell
a file truncated on a record boundary (or deleted) from one that simply ends there. Records
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

from netproto.wire.sessions import token_digest

MAGIC = b"ONO99JNL"
# 2: adds the `options` record (docs/JOURNAL.md "Versions"); a file is written as version 1
# until it first holds one (`JournalWriter.append(..., version=2)`).
# 3: adds a duplicate set's `duplicate` field to `match` and `won` (docs/DUPLICATE.md): a
# set's match is dealt by another generator, so a reader that passed over the field would
# replay it wrong; a file is raised to 3 when it first holds one.
JOURNAL_VERSION = 3
SUFFIX = ".journal"
_HEADER = struct.Struct(">II")  # payload length, CRC-32 of the payload
# A record is a match header or one move: far below this. A larger length is corruption.
MAX_RECORD_SIZE = 1 << 20
# The end mark: magic, the journal's length, where a match that could not be written in
# full starts (0: none) and its number.
END_MARK_SUFFIX = ".end"
END_MAGIC = b"ONO99END"
_END_MARK = struct.Struct(">8sQQI")


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
    """A record is damaged where a torn write cannot have left it: what follows cannot be
    trusted, or whole records would be lost with it."""


class JournalInUse(Exception):
    """Another running process has the journal open for appending (a table of the same
    name is already hosted on this machine)."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: another running ono99 host is writing this journal")
        self.path = path


class JournalMoved(OSError):
    """The journal's path no longer names the file being written (it was deleted, moved
    away or replaced while the table played); `gone`: nothing is at the path now."""

    def __init__(self, path: Path, gone: bool) -> None:
        how = "deleted or moved away" if gone else "replaced by another file"
        super().__init__(f"{path}: the journal was {how} while the table played")
        self.path = path
        self.gone = gone


@dataclass(frozen=True)
class EndMark:
    """What the writer of a journal last left in its end mark: the journal's length once
    its last record was whole, and (`lost_at`, `lost_match`) where the header of a match
    is that could not be written in full, and its number (0, 0: none)."""

    size: int
    lost_at: int = 0
    lost_match: int = 0


@dataclass(frozen=True)
class JournalContents:
    """What a journal file holds: its whole records, in order, and whether a torn last
    record was dropped (the host was killed while writing it)."""

    records: tuple[dict[str, Any], ...]
    torn_tail: bool = False
    # Where the whole records end: an append continues here.
    end_offset: int = 0
    # Where the first of `records` starts (with `since_kind`, the last record of that kind).
    since_offset: int = 0
    version: int = JOURNAL_VERSION
    # The end mark beside the file when a writer opened it (None: there was none).
    end_mark: EndMark | None = None
    # Why the end mark could not be read, if it could not (it is then ignored).
    end_mark_problem: str | None = None


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


def end_mark_path(path: Path) -> Path:
    """The end mark of the journal at `path` (beside it)."""
    return path.with_name(path.name + END_MARK_SUFFIX)


def frame(record: dict[str, Any]) -> bytes:
    """One record as the file holds it: length, checksum, payload."""
    payload: bytes = msgpack.packb(record, use_bin_type=True)
    if len(payload) > MAX_RECORD_SIZE:
        raise ValueError(f"a journal record of {len(payload)} bytes is over the limit")
    return _HEADER.pack(len(payload), zlib.crc32(payload)) + payload


def _whole_record_within(data: bytes, start: int, stop: int) -> int | None:
    """The offset of the first whole record (a length within the limit and the file, and a
    checksum that holds) that starts in `data[start:stop]`, if any. A torn write holds
    none: finding one means a damaged length would take real records with it."""
    view = memoryview(data)
    size, header_size = len(data), _HEADER.size
    unpack_header, crc32 = _HEADER.unpack_from, zlib.crc32
    for offset in range(start, min(stop, size - header_size) + 1):
        length, checksum = unpack_header(data, offset)
        end = offset + header_size + length
        # A payload is at least one byte (a msgpack map): eight zero bytes are no record.
        if 0 < length <= MAX_RECORD_SIZE and end <= size and crc32(
                view[offset + header_size:end]) == checksum:
            return offset
    return None


def _frames(path: Path, data: bytes) -> tuple[list[tuple[int, int]], bool]:
    """(offset, end) of each record whose length and checksum are whole, in order, and
    whether a torn last record follows them. Raises JournalCorrupt for damage a torn write
    cannot leave. Nothing is unpacked here: a table's file holds hundreds of thousands of
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
            raise JournalCorrupt(path, f"the record at byte {offset} claims {length} bytes")
        if end >= size and (end > size or crc32(view[offset + header_size:end]) != checksum):
            # Cut short, or the last payload fails its checksum: a torn write, if what is
            # left holds no whole record (else its length is damaged).
            later = _whole_record_within(data, offset + 1, size)
            if later is not None:
                raise JournalCorrupt(
                    path, f"the record at byte {offset} claims {length} bytes, but a whole "
                          f"record follows it at byte {later}: its length is damaged")
            return frames, True
        if crc32(view[offset + header_size:end]) != checksum:
            raise JournalCorrupt(path, f"the record at byte {offset} fails its checksum")
        frames.append((offset, end))
        offset = end
    return frames, False


def _decode(path: Path, data: bytes, offset: int, end: int) -> dict[str, Any]:
    """The record framed at `offset`; raises JournalCorrupt if it is not one (a whole
    record, checksum and all, cannot be a torn write)."""
    try:
        record = msgpack.unpackb(data[offset + _HEADER.size:end], raw=False,
                                 strict_map_key=True)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise JournalCorrupt(path, f"the record at byte {offset} is not msgpack "
                                   f"({error})") from None
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        raise JournalCorrupt(path, f"the record at byte {offset} has no kind")
    return record


def _contents(path: Path, data: bytes, since_kind: str | None) -> JournalContents:
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
    since = len(MAGIC) + 1
    for offset, end in reversed(frames):  # newest first, to stop at `since_kind`
        record = _decode(path, data, offset, end)
        records.append(record)
        since = offset
        if since_kind is not None and record["kind"] == since_kind:
            break
    records.reverse()
    end_offset = frames[-1][1] if frames else len(MAGIC) + 1
    return JournalContents(records=tuple(records), torn_tail=torn, end_offset=end_offset,
                           since_offset=since, version=version)


def read_journal(path: Path, since_kind: str | None = None) -> JournalContents:
    """Every whole record of the journal at `path`; raises JournalError (or OSError).

    `since_kind`: only the records from the last one of that kind on (all of them if there
    is none), e.g. a table's last match; the others are checked but not unpacked.
    """
    return _contents(path, path.read_bytes(), since_kind)


def _read_end_mark(descriptor: int) -> EndMark | None:
    """The end mark in the open file, None if it is empty; ValueError if it is garbled."""
    data = os.pread(descriptor, _END_MARK.size + 1, 0)
    if not data:
        return None
    if len(data) != _END_MARK.size:
        raise ValueError(f"it is {len(data)} bytes long, not {_END_MARK.size}")
    magic, size, lost_at, lost_match = _END_MARK.unpack(data)
    if magic != END_MAGIC:
        raise ValueError("it does not start like an end mark")
    return EndMark(size=size, lost_at=lost_at, lost_match=lost_match)


@dataclass
class JournalWriter:
    """Appends records to one journal file and keeps its end mark (see the module
    docstring). The end mark is first written by `commit` (after the caller has judged
    what the file held), then after every change of the journal."""

    path: Path
    _descriptor: int = field(default=-1, repr=False)
    # Where the whole records end (the file's size while every append succeeds).
    end: int = 0
    version: int = JOURNAL_VERSION
    # The open end mark (-1: none could be opened; `mark_problem` says why).
    _mark: int = field(default=-1, repr=False)
    mark_problem: str | None = None
    # A match that could not be written in full (`EndMark.lost_at`, `lost_match`).
    lost_at: int = 0
    lost_match: int = 0
    _committed: bool = field(default=False, repr=False)
    # (st_dev, st_ino) of the file written: the path must still name it.
    _identity: tuple[int, int] = field(default=(0, 0), repr=False)

    @classmethod
    def open(cls, path: Path,
             since_kind: str | None = None) -> tuple[JournalWriter, JournalContents]:
        """Open (creating it, private) the journal at `path` for appending, after cutting
        away a torn last record; also returns what it already held (from the last record
        of `since_kind` on, as `read_journal`) and its end mark. Raises JournalError,
        JournalInUse when another process has it open, or OSError."""
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        writer = cls(path=path, _descriptor=descriptor)
        try:
            # One writer per file: a second host of the same table name must neither
            # append to it nor take up the first one's match. The lock goes with the
            # process, so a killed host's restart gets it at once.
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise JournalInUse(path) from None
            contents = _contents(path, _read_all(descriptor), since_kind)
            mark, mark_problem = writer._open_mark()
            contents = JournalContents(
                records=contents.records, torn_tail=contents.torn_tail,
                end_offset=contents.end_offset, since_offset=contents.since_offset,
                version=contents.version, end_mark=mark, end_mark_problem=mark_problem)
            if contents.end_offset == 0:  # new (or its header was torn): start it
                os.ftruncate(descriptor, 0)
                os.write(descriptor, MAGIC + bytes([1]))
                contents = JournalContents(
                    records=(), torn_tail=contents.torn_tail, end_offset=len(MAGIC) + 1,
                    since_offset=len(MAGIC) + 1, version=1, end_mark=mark,
                    end_mark_problem=mark_problem)
            elif contents.torn_tail:  # at most one record, checked by `_frames`
                os.ftruncate(descriptor, contents.end_offset)
            status = os.fstat(descriptor)
            writer._identity = (status.st_dev, status.st_ino)
        except BaseException:
            writer.close()
            raise
        writer.end, writer.version = contents.end_offset, contents.version
        return writer, contents

    @classmethod
    def create(cls, path: Path) -> JournalWriter:
        """A new, empty journal at `path`, which must not exist (a journal deleted while
        its table played is started again); raises OSError (FileExistsError) or
        JournalInUse."""
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        writer = cls(path=path, _descriptor=descriptor, end=len(MAGIC) + 1, version=1)
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise JournalInUse(path) from None
            os.write(descriptor, MAGIC + bytes([1]))
            writer._open_mark()
            status = os.fstat(descriptor)
            writer._identity = (status.st_dev, status.st_ino)
        except BaseException:
            writer.close()
            raise
        writer.commit()
        return writer

    def _open_mark(self) -> tuple[EndMark | None, str | None]:
        """Open (creating it) the end mark; what it held, or why it could not be read."""
        mark_path = end_mark_path(self.path)
        try:
            self._mark = os.open(mark_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            self.mark_problem = f"cannot open {mark_path}: {error.strerror or error}"
            return None, self.mark_problem
        try:
            return _read_end_mark(self._mark), None
        except (OSError, ValueError) as error:
            return None, f"{mark_path} cannot be read ({error}); it is written anew"

    def check_path(self) -> None:
        """Raise JournalMoved if the path no longer names the file being written."""
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            raise JournalMoved(self.path, gone=True) from None
        if (status.st_dev, status.st_ino) != self._identity:
            raise JournalMoved(self.path, gone=False)

    def append(self, record: dict[str, Any], *, version: int = 1) -> None:
        """Write one record with a single system call (whole on disk, or a torn tail);
        `version`: the format version the record needs (the file's byte is raised first)."""
        self.append_all([record], version=version)

    def append_all(self, records: list[dict[str, Any]], *, version: int = 1) -> None:
        """Write records with a single system call; a short write is cut away again (and
        raises OSError), so the file never ends in some of them."""
        if version > self.version:
            # Raised before the record that needs it: a file that says 2 and holds only
            # version-1 records reads the same; the other way round it would not.
            # (pwrite on an O_APPEND descriptor appends on Linux: the flag is off meanwhile.)
            flags = fcntl.fcntl(self._descriptor, fcntl.F_GETFL)
            fcntl.fcntl(self._descriptor, fcntl.F_SETFL, flags & ~os.O_APPEND)
            try:
                os.pwrite(self._descriptor, bytes([version]), len(MAGIC))
            finally:
                fcntl.fcntl(self._descriptor, fcntl.F_SETFL, flags)
            self.version = version
        data = b"".join([frame(record) for record in records])
        try:
            written = os.write(self._descriptor, data)
            if written != len(data):
                # A full disk or a file-size limit writes what fits: the rest, written on,
                # fails with the reason (or goes through, if room was made meanwhile).
                rest = memoryview(data)[written:]
                while rest:
                    more = os.write(self._descriptor, rest)
                    if not more:
                        raise OSError(f"{self.path}: only {written} of {len(data)} bytes "
                                      "written")
                    written += more
                    rest = rest[more:]
        except OSError:  # what was written is cut away again
            self._cut_back()
            raise
        self.end += written
        self._write_mark()

    def _cut_back(self) -> None:
        """After a failed write: the file ends at `end` again (best effort; if even this
        fails, a torn tail is left, which a reader drops)."""
        try:
            if os.fstat(self._descriptor).st_size > self.end:
                os.ftruncate(self._descriptor, self.end)
        except OSError:
            pass

    def truncate(self, offset: int) -> None:
        """Cut the file back to `offset` (a record boundary), dropping what follows."""
        os.ftruncate(self._descriptor, offset)
        self.end = offset
        self._write_mark()

    def set_lost(self, at: int, match: int) -> bool:
        """Mark the match whose header is (or would be) at `at` as not written in full;
        (0, 0) clears it. True when the end mark says so now."""
        self.lost_at, self.lost_match = at, match
        return self._write_mark()

    def commit(self) -> bool:
        """Start keeping the end mark (the file's state is the writer's from now on); True
        when it was written."""
        self._committed = True
        return self._write_mark()

    def _write_mark(self) -> bool:
        if not self._committed or self._mark < 0:
            return False
        data = _END_MARK.pack(END_MAGIC, self.end, self.lost_at, self.lost_match)
        try:
            written = os.pwrite(self._mark, data, 0)
            if written == len(data):
                self.mark_problem = None
                return True
            self.mark_problem = f"{end_mark_path(self.path)}: a short write"
        except OSError as error:
            self.mark_problem = f"{end_mark_path(self.path)}: {error.strerror or error}"
        return False

    def close(self) -> None:
        """Close the file (records already appended stay)."""
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1
        if self._mark >= 0:
            os.close(self._mark)
            self._mark = -1


def _read_all(descriptor: int) -> bytes:
    """The whole file behind `descriptor` (read through it: the file just locked)."""
    size = os.fstat(descriptor).st_size
    chunks, offset = [], 0
    while offset < size:
        chunk = os.pread(descriptor, size - offset, offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def remove_end_mark(path: Path) -> None:
    """Remove the end mark of the journal at `path`, if there is one."""
    end_mark_path(path).unlink(missing_ok=True)
