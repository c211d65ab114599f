"""ONO 99 in the terminal: rules engine, table server, bots and the Textual app."""

__version__ = "0.1.0"
