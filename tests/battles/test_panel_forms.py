"""Every input a panel's form posts names a field its command declares
(``rules.game.commands``): the screens and the rules cannot drift apart.

A game is played by the test bot through the game service; at each step both
phones' boards (and the tools at the table) are read, and each form that posts
a command is held against its kind's declaration."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from battles.services import games as services
from battles.services.games import TABLE_COMMANDS
from rules.game import COMMAND_TABLE
from tests.support.game_bot import next_command

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

# What every tap carries beside its command's fields (battles.taps.parse_tap).
TAP_FIELDS = {"csrfmiddlewaretoken", "type", "side", "version", "tap", "faces", "each"}
TOOLS = ("test", "scatter", "effect")


class _Forms(HTMLParser):
    """The forms of a page: each one's input, select, textarea and button names."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._open = {"type": None, "names": set()}
            self.forms.append(self._open)
        elif self._open is not None and tag in (
            "input",
            "select",
            "textarea",
            "button",
        ):
            name = attrs.get("name")
            if name == "type":
                self._open["type"] = attrs.get("value")
            elif name:
                self._open["names"].add(name)

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None


DECLARED = {**COMMAND_TABLE, **TABLE_COMMANDS}


def _declared(kind: str, name: str) -> bool:
    if name in TAP_FIELDS:
        return True
    if ":" in name and not any(f.prefix for f in DECLARED[kind].fields):
        # A batched tap posts each item's fields as "<item>:<field>".
        name = name.split(":", 1)[1]
    for field in DECLARED[kind].fields:
        if field.prefix and name.startswith(field.prefix):
            return True
        if name == field.name:
            return True
    return False


def _command_forms(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return [form for form in parser.forms if form["type"] in DECLARED]


def test_every_panel_input_names_a_declared_field(game, owner_client, opponent_client):
    phones = {"a": owner_client, "b": opponent_client}
    game.dice_seed = "panel-forms-1"  # the same game at every run
    game.save(update_fields=["dice_seed"])
    rng = random.Random(7)
    met = {"set_sequence", "draw", "roll", "tick_upkeep", "characteristic_test"}
    seen: dict[str, set[str]] = {}
    for _step in range(400):
        game.refresh_from_db()
        if game.state["phase"] == "finished" or met <= set(seen):
            break
        for phone in phones.values():
            pages = [phone.get(f"/games/{game.public_id}/").content.decode()]
            pages += [
                phone.get(f"/games/{game.public_id}/tools/{tool}").content.decode()
                for tool in TOOLS
            ]
            for page in pages:
                for form in _command_forms(page):
                    kind = form["type"]
                    seen.setdefault(kind, set()).update(form["names"])
                    stray = {n for n in form["names"] if not _declared(kind, n)}
                    assert not stray, (kind, stray)
        side, command = next_command(game.state, rng)
        services.perform_action(game, side, command)
    # The walk met the forms of every phase, not a handful.
    assert met <= set(seen), sorted(seen)
