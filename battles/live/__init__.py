"""Live updates: after an action commits, every phone watching learns of it.

``announce(game_id, version)`` is called in ``transaction.on_commit`` by the
game services; the bus (``battles.live.bus``) carries "events up to N exist"
to the Server-Sent Events streams, which tell each page to fetch what it may
see (DESIGN: "Live updates").
"""

from battles.live.bus import announce, get_bus

__all__ = ["announce", "get_bus"]
