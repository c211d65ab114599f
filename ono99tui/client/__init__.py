"""The client side of a table, free of Textual: the session every front end stands on.

`session.TableSession` is a player's program's sans-IO core (the shape of the host's
`host/core.py`): table frames and the player's intents in, outputs (`outputs.py`) out.
`story.py` keeps the match's story as events and values; `options.py` decodes the table's
options; `joining.py` gets from "that table" to a connected client; `catch_up.py`,
`talk.py`, `names.py`, `free_seats.py`, `turn_alert.py`, `wire_text.py` and
`connect_errors.py` are the pure rules and words they need. Nothing here imports Textual
or aiohttp (`tests/client/test_no_textual.py`).
"""
