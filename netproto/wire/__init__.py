"""The protocol on the wire, sans-IO: typed errors, msgpack packing, frames, names and chat
text, the messages, the connection state machine and resume tokens. No sockets, no asyncio."""
