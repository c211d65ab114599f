"""Fixtures of the table tests (helpers live in host_table_helpers.py)."""
