"""The words every front end shows for the table, free of Textual: one place for them.

`events.py` puts the match's events, busts, limits and reasons into sentences;
`rule_labels.py` names every rule option, mode and deck. The Textual app (through
`ono99tui.ui.present`, which adds the widgets' display values) and the line mode
(`ono99tui.line`) both read them, so a sentence is written once and translated once: each
goes through `ono99tui.i18n`. Nothing here imports Textual (`tests/line/test_no_textual.py`).
"""
