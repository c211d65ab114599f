"""A tiny terminal program for door tests: reports its terminal, echoes keys, quits on q.

Run by the door in place of the game so the door's own mechanics (pty, TERM, resize,
input, exit status, environment) are checked without the rest of the app.
"""

import os
import signal
import sys
import termios
import tty


def report(text: str) -> None:
    os.write(1, (text + "\r\n").encode())


def report_size(*_: object) -> None:
    size = os.get_terminal_size(0)
    report(f"SIZE={size.columns}x{size.lines}")


def main() -> int:
    tty.setraw(0)
    try:
        tty_name = os.ttyname(0)
        controlling = os.tcgetpgrp(0) == os.getpgrp()
        report(f"ARGV={' '.join(sys.argv[1:])}")
        report(f"TERM={os.environ.get('TERM')} LANG={os.environ.get('LANG')} TTY={tty_name}")
        report(f"CONTROLLING={controlling} CONFIG_DIR={os.environ.get('ONO99_CONFIG_DIR')} PID={os.getpid()}")
        report_size()
        signal.signal(signal.SIGWINCH, report_size)
        report("READY")
        while True:
            try:
                data = os.read(0, 1024)
            except InterruptedError:
                continue
            if not data:
                return 0
            report(f"GOT={data!r}")
            if b"q" in data:
                return 3
    finally:
        termios.tcsetattr(0, termios.TCSANOW, termios.tcgetattr(0))


if __name__ == "__main__":
    sys.exit(main())
