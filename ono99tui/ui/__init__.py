"""The Textual app: `app.Ono99App`, its screens (one per file, with its .tcss) and widgets.

Nothing outside this package imports Textual, so a headless host never loads it.
"""
