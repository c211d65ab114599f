"""Guessers at an SSH door, in a process of their own (as guessers are on machines of their
own): `python guessers_child.py PORT FIRST_ADDRESS COUNT`. Each of COUNT loopback addresses
from FIRST_ADDRESS up (127.0.6.1, 127.0.6.2, …) connects, tries passwords as fast as the door
answers and connects again when it is closed, until stdin closes. Prints "guessing" once all
have started."""

from __future__ import annotations

import asyncio
import ipaddress
import sys

import asyncssh


async def keep_guessing(port: int, source: str, stop: asyncio.Event) -> None:
    """A guesser: connect from `source`, try passwords as fast as the door answers, connect
    again when it is closed, until `stop`."""

    class Guesser(asyncssh.SSHClient):
        def password_auth_requested(self) -> str | None:
            return None if stop.is_set() else "a guess"

    while not stop.is_set():
        try:
            async with asyncssh.connect(
                    "127.0.0.1", port, username="guesser", known_hosts=None,
                    client_keys=None, agent_path=None, local_addr=(source, 0),
                    client_factory=Guesser, preferred_auth="password"):
                pass
        except (asyncssh.Error, OSError):
            await asyncio.sleep(0.01)


async def main(port: int, first: str, count: int) -> None:
    stop = asyncio.Event()
    start = ipaddress.ip_address(first)
    guessers = [asyncio.create_task(keep_guessing(port, str(start + number), stop))
                for number in range(count)]
    print("guessing", flush=True)
    await asyncio.to_thread(sys.stdin.read)  # until the test closes our stdin
    stop.set()
    await asyncio.gather(*guessers, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
