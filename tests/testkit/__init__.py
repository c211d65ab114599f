"""What tests share, written once: waiting on a condition (`waiting`), a real terminal in a
private tmux server (`tmux`), and what a Textual app's screen shows (`screens`).

Test directories have no `__init__.py`, so pytest puts each one holding a conftest on the
path, `tests/` among them: every test imports these as `testkit.…`.
"""
