"""The host side of one table: seats, settings, the table's authority and its server,
the journal, start-up and teardown (`hosting`), the headless runner and the launcher that
seats the host's own app (`with_app`, which takes the app from its caller).

Never imports Textual, the SSH door or the commands: those sit above this package.
"""
