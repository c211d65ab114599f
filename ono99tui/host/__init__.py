"""The host side of one table: the table's authority as a sans-IO core (`core`, with
`seats`, `settings`, `outputs`), the asyncio adapter that serves it (`server`), the view
encoding, the journal, start-up and teardown (`hosting`), the headless runner and the
launcher that seats the host's own app (`with_app`, which takes the app from its caller).

A hosted table is started from one `HostOptions` (`options`); its doors (the SSH door…)
arrive in it as objects that fit `doors.Door`. Never imports Textual, the SSH door, argparse
or the commands: those sit above this package.
"""
