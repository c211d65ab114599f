"""Line mode (`--plain`): ONO 99 for screen readers, braille displays and scripts.

No cursor movement, no redraws, no colour unless `--color`: each public event is one
sentence printed as it happens, the hand is a numbered list at the player's turn, and the
prompt is a line of its own ending in "> ". A front end of the client session
(`ono99tui.client.session`), like the Textual app: `front_end.py` is the asyncio adapter
(stdin lines and the table's connection in), `commands.py` reads what is typed,
`sentences.py` and `ono99tui.words` say what happens, `room_news.py` what changed between
two lobbies, `hint.py` a hint; `output.py` writes it all, `host_options.py` reads the host's
`set`, `start.py` starts it for join, solo and host. Nothing here imports Textual
(`tests/line/test_no_textual.py`); docs/ACCESSIBILITY.md.
"""

