"""The table screen's widgets: cards, seats, the running total and the event log."""
