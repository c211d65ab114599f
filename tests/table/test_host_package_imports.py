"""The host package sits below the commands, the UI and the doors (DESIGN.md: commands → ui |
ssh → host → bots → game): none of its modules imports them, nor argparse."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ono99tui.host

HOST_PACKAGE = Path(ono99tui.host.__file__).parent
FORBIDDEN = ("argparse", "textual", "ono99tui.ssh", "ono99tui.ui", "ono99tui.commands",
             "ono99tui.web", "asyncssh")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_host_module_imports_what_sits_above_it() -> None:
    found = {
        f"{path.name}: {name}"
        for path in sorted(HOST_PACKAGE.glob("*.py"))
        for name in imported_modules(path)
        if any(name == top or name.startswith(top + ".") for top in FORBIDDEN)
    }
    assert found == set()


def test_a_headless_host_without_a_door_loads_no_door() -> None:
    code = (
        "import sys\n"
        "from ono99tui.cli import main\n"
        "status = main(['host', '--headless', '--no-advertise', '--bind', '127.0.0.1',"
        " '--port', '0', '--seats', '2', '--bots', '2', '--bot-delay', '0', '--exit-after', '1'])\n"
        "print(status, sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('asyncssh', 'textual') or m.startswith('ono99tui.ssh')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "0 []"
