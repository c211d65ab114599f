"""The phone page's side of the web door: one `TableSession` per phone in the door's
process (`link`), what the page is sent (`state`, `words`) and what it may ask (`intents`)."""
