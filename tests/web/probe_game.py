"""A stand-in for the game behind the web door: speaks Textual's web driver protocol and
reports what it was given (argv, environment) and every packet it receives, as text lines
(keys as JSON strings)."""

from __future__ import annotations

import json
import os
import sys


def packet(kind: bytes, payload: bytes) -> None:
    out = sys.stdout.buffer
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()


def main() -> None:
    sys.stdout.buffer.write(b"__GANGLION__\n")
    sys.stdout.buffer.flush()
    # Mouse reports on, as Textual asks of a terminal: a click then reaches the probe.
    packet(b"D", b"\x1b[?1000h\x1b[?1006h")
    started = {"argv": sys.argv[1:], "env": dict(os.environ), "pid": os.getpid()}
    packet(b"D", b"START " + json.dumps(started).encode() + b"\r\n")
    stdin = sys.stdin.buffer
    while True:
        head = stdin.read(5)
        if len(head) < 5:
            break
        payload = stdin.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M":
            meta = json.loads(payload)
            if meta.get("type") == "quit":
                break
            packet(b"D", b"META " + payload + b"\r\n")
        elif payload == b"\x11":  # Ctrl+Q: the game quits on its own
            break
        else:
            # As JSON, so escape sequences (mouse reports) show as text on a terminal.
            keys = json.dumps(payload.decode("utf-8", "replace"))
            packet(b"D", b"KEYS " + keys.encode() + b"\r\n")


if __name__ == "__main__":
    main()
