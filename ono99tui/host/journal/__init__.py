"""The table's journal and its readers, apart from the live table: the records the core emits
(`records`), their file (`file`), a hosted table's journal in that file (`table`), where an
unfinished match stood (`resume`), finished matches for replays (`history`) and standings
(`stats`)."""
