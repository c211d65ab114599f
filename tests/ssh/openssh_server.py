"""A throw-away OpenSSH server on loopback, for tests that go through real `ssh`/`sshd`.

Everything it needs (host key, user key, authorized_keys, sshd_config, pid file) lives in
the test's own directory; the sessions it starts get the test's PATH and PYTHONPATH, so
the remote command finds the same Python and packages as the test itself.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from testkit.ports import free_port

SSHD = "/usr/sbin/sshd"
# sshd refuses to start without its privilege separation directory.
PRIVSEP_DIR = Path("/run/sshd")


def missing_requirement() -> str | None:
    """Why real-OpenSSH tests cannot run here, or None when they can."""
    if not Path(SSHD).exists() or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        return "OpenSSH (sshd, ssh, ssh-keygen) is not installed"
    if os.geteuid() != 0:
        return "sshd for another user's login needs root"
    return None


def make_key(path: Path) -> Path:
    """Generate an Ed25519 key pair without a passphrase at *path* (and *path*.pub)."""
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ono99-test", "-f", str(path)],
        check=True, capture_output=True,
    )
    return path


class OpenSSHServer:
    """sshd on 127.0.0.1 accepting one user key, with the given environment for sessions."""

    def __init__(self, directory: Path, session_env: Mapping[str, str]) -> None:
        self.directory = directory
        self.session_env = dict(session_env)
        self.user_key = make_key(directory / "user_key")
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None

    def _write_config(self) -> Path:
        host_key = make_key(self.directory / "host_key")
        authorized = self.directory / "authorized_keys"
        authorized.write_bytes(Path(f"{self.user_key}.pub").read_bytes())
        env = " ".join(shlex.quote(f"{k}={v}") for k, v in self.session_env.items())
        config = self.directory / "sshd_config"
        config.write_text(
            "\n".join(
                [
                    f"ListenAddress 127.0.0.1:{self.port}",
                    f"HostKey {host_key}",
                    f"PidFile {self.directory / 'sshd.pid'}",
                    f"AuthorizedKeysFile {authorized}",
                    "UsePAM no",
                    "StrictModes no",
                    "PermitRootLogin prohibit-password",
                    "PubkeyAuthentication yes",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "PrintMotd no",
                    "PrintLastLog no",
                    "AcceptEnv LANG LC_*",
                    f"SetEnv {env}",
                    "",
                ]
            )
        )
        return config

    def start(self, timeout: float = 10.0) -> None:
        """Start sshd in the foreground of a child process and wait until it accepts."""
        PRIVSEP_DIR.mkdir(mode=0o755, exist_ok=True)
        self.port = free_port()
        config = self._write_config()
        # sshd gets its own copy of the log's descriptor; ours can close once it runs.
        with open(self.directory / "sshd.log", "wb") as log_file:
            self._process = subprocess.Popen(
                [SSHD, "-D", "-e", "-f", str(config)],
                stdout=subprocess.DEVNULL,
                stderr=log_file,
            )
        deadline = time.monotonic() + timeout
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"sshd exited: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"sshd did not listen: {self.log()}") from None
                time.sleep(0.05)

    def log(self) -> str:
        """What sshd wrote to its log so far."""
        return (self.directory / "sshd.log").read_text(errors="replace")

    def ssh_command(self, remote: Sequence[str], user: str = "root") -> list[str]:
        """`ssh -tt` to this server as *user*, running *remote* there."""
        return [
            "ssh", "-tt", "-p", str(self.port), "-i", str(self.user_key),
            "-F", "/dev/null",
            "-o", "StrictHostKeyChecking=no",
            "-o", f"UserKnownHostsFile={self.directory / 'known_hosts'}",
            "-o", "BatchMode=yes",
            "-o", "ServerAliveInterval=5",
            "-o", "SendEnv=LANG LC_*",
            f"{user}@127.0.0.1",
            shlex.join(remote),
        ]

    def stop(self) -> None:
        """Stop sshd (sessions it started end with their connections)."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()


def python_env() -> dict[str, str]:
    """PATH and PYTHONPATH that make this test's Python and packages the ones ssh sessions use."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    # The project may be on sys.path only as the working directory (not installed).
    import ono99tui

    project_root = str(Path(ono99tui.__file__).resolve().parent.parent)
    python_path = os.pathsep.join(p for p in [project_root, os.environ.get("PYTHONPATH", "")] if p)
    return {"PATH": path, "PYTHONPATH": python_path}
