"""Fixtures of the table tests (helpers live in table_helpers.py)."""
