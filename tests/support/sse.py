"""Reading Server-Sent Events as a browser's EventSource does (no Django)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SSEMessage:
    id: str | None = None
    event: str = "message"
    data: str = ""


def parse_sse(text: str) -> tuple[list[SSEMessage], list[str], str]:
    """Complete messages, comment lines, and the unfinished rest of ``text``."""
    messages: list[SSEMessage] = []
    comments: list[str] = []
    *blocks, rest = text.split("\n\n")
    for block in blocks:
        message = SSEMessage()
        fields = fields_data = False
        for line in block.split("\n"):
            if line.startswith(":"):
                comments.append(line[1:].strip())
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                message.id, fields = value, True
            elif name == "event":
                message.event, fields = value, True
            elif name == "data":  # several data lines join with newlines
                message.data = f"{message.data}\n{value}" if fields_data else value
                fields = fields_data = True
        if fields and message.data:
            messages.append(message)
    return messages, comments, rest


def versions(messages: list[SSEMessage]) -> list[int]:
    """The versions a game's stream announced: each message a ``version``
    event whose id is its data, or a ``board`` event (what changed, pushed)
    whose first data line is the version it applies to."""
    for m in messages:
        assert m.event in ("version", "board"), m.event
        if m.event == "version":
            assert m.id == m.data
        else:
            assert m.data.split("\n", 1)[0].isdigit()
    return [int(m.id) for m in messages]
