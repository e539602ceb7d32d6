"""The bus's message: "game_id:version", and the side when a side's tap made
that version, so that no process renders a push its phone would drop (that
phone has the tap's answer)."""

from __future__ import annotations

import asyncio

import pytest

from battles.live import bus


@pytest.mark.parametrize(
    ("game_id", "version", "side", "payload"),
    [(7, 31, "a", "7:31:a"), (7, 31, "b", "7:31:b"), (7, 31, None, "7:31")],
)
def test_a_message_says_the_side_when_a_tap_made_the_version(
    game_id, version, side, payload
):
    assert bus.encode(game_id, version, side) == payload
    assert bus.decode(payload) == (game_id, version, side)
    assert bus.decode(payload.encode()) == (game_id, version, side)


@pytest.mark.parametrize(
    "payload", ["", "7", "7:", "x:31", "7:31:c", "7:31:spectator", "7:x:a", b"\xff:1"]
)
def test_a_malformed_message_is_dropped(payload):
    assert bus.decode(payload) is None


class _OneMessage(bus.ListeningBus):
    """A bus whose connection hears one message, then stays open."""

    name = "test"

    def __init__(self, payload: str) -> None:
        super().__init__()
        self.payload = payload

    async def listen(self, ready):
        ready.set()
        yield self.payload
        await asyncio.Event().wait()


def test_a_process_hearing_the_side_renders_no_push_for_it():
    async def scenario():
        heard = _OneMessage(bus.encode(4242, 9, "b"))
        queue = await heard.subscribe(4242)
        version = await asyncio.wait_for(queue.get(), 5)
        heard.unsubscribe(4242, queue)
        return version

    assert asyncio.run(scenario()) == 9
    assert bus.acted_side(4242, 9) == "b"  # the room then skips side B's render
    assert bus.acted_side(4242, 10) is None
