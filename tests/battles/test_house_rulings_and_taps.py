"""House rulings on the new-game form and the game page; the tap parser reading
each command's fields from their one declaration (rules.game.commands)."""

from __future__ import annotations

import pytest
from django.http import QueryDict

from battles.models import Game
from battles.taps import parse_tap
from battles.validation import FieldError
from rules.game.commands import COMMAND_TABLE
from rules.melee import HOUSE_RULINGS
from tests.support.live import new_game_form

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _post(**fields) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        if isinstance(value, list):
            data.setlist(key, value)
        else:
            data[key] = value
    return data


def test_the_new_game_form_offers_every_house_ruling_with_its_default(owner_client):
    page = owner_client.get("/games/new/").content.decode()
    for name in HOUSE_RULINGS:
        assert f'name="ruling_{name}"' in page
    # Each default says truly where it comes from: "the sources' default" only
    # where the sources give it (the issue: a reason "not found in the
    # sources" read as "the sources' default").
    bases = [ruling.basis for ruling in HOUSE_RULINGS.values()]
    assert page.count("(default)</option>") == len(HOUSE_RULINGS)
    assert page.count("· The sources&#x27; default.") == bases.count("read")
    assert page.count("· Default chosen here: not found in the sources.") == (
        bases.count("none")
    )
    assert page.count("· Default read in another edition.") == bases.count(
        "other_edition"
    )
    assert "What does a charger that fails its Courage test do?" in page
    assert "Does a defence test equal to the attack parry it?" in page
    assert "Not found in the sources" in page  # the reason, next to the choice


def test_the_rulings_chosen_are_the_game_s_and_the_others_take_their_default(
    owner_client, demo_armies
):
    army_a, army_b = demo_armies
    form = new_game_form(army_a, army_b, ruling_parry_tie="not_parried")
    assert owner_client.post("/games/new/", form).status_code == 302
    game = Game.objects.get()
    assert game.state["house_rulings"]["parry_tie"] == "not_parried"
    assert game.state["house_rulings"]["placement_order"] == "loser_first"
    page = owner_client.get(f"/games/{game.public_id}/").content.decode()
    assert f"{len(HOUSE_RULINGS)} house rulings in force" in page
    assert "default chosen here: not found in the sources" in page
    assert "not parried" in page


def test_an_unknown_ruling_value_is_refused_next_to_it(owner_client, demo_armies):
    army_a, army_b = demo_armies
    form = new_game_form(army_a, army_b, ruling_parry_tie="always")
    response = owner_client.post("/games/new/", form)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert Game.objects.count() == 0


def test_every_command_but_the_tools_is_read_from_its_declaration():
    tap = parse_tap(_post(type="place_dice", fighter="a1.1", attack="2", tap="k"), "a")
    assert tap.command == {
        "type": "place_dice",
        "fighter": "a1.1",
        "attack": 2,
        "sequence": 0,
        "war_fury": False,
    }
    tap = parse_tap(_post(type="parry", dice="1", counter="1", tap="k"), "b")
    assert tap.command == {"type": "parry", "dice": 1, "counter": True}
    tap = parse_tap(_post(type="initiative", fighter="b1.2", tap="k"), "b")
    assert tap.command == {"type": "initiative", "fighter": "b1.2"}
    assert set(COMMAND_TABLE) >= {"initiative", "place_dice", "attack", "parry"}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"type": "place_dice", "fighter": "a1.1", "attack": "31"}, "attack"),
        ({"type": "place_dice", "fighter": "a1.1", "attack": "-1"}, "attack"),
        ({"type": "place_dice", "fighter": "a1.1", "attack": "two"}, "attack"),
        ({"type": "place_dice", "attack": "1"}, "fighter"),
        ({"type": "parry", "dice": "99"}, "dice"),
        ({"type": "attack", "attacker": "a" * 25, "target": "b1.1"}, "attacker"),
        ({"type": "draw", "action": "steal"}, "action"),
        ({"type": "end_combat"}, "type"),
        ({"type": "set_attack_difficulty", "difficulty": "3"}, "type"),
    ],
)
def test_a_bad_field_is_refused_next_to_it(fields, field):
    with pytest.raises(FieldError) as refusal:
        parse_tap(_post(tap="k", **fields), "a")
    assert refusal.value.field == field
    assert refusal.value.message


def test_the_suggested_split_and_a_chosen_one_are_both_read():
    tap = parse_tap(_post(type="form_combats", combats="suggested", tap="k"), "a")
    assert tap.command == {"type": "form_combats", "combats": "suggested"}
    data = _post(type="form_combats", combats="suggested", tap="k")
    data["opponent:a1.1"] = "b1.1"
    tap = parse_tap(data, "a")
    assert tap.command["choices"] == {"a1.1": "b1.1"}


def test_a_result_a_house_ruling_decided_says_so_in_the_log():
    from battles.presenters.log import log_lines

    state = {"fighters": {}, "sides": {"a": {"name": "A"}, "b": {"name": "B"}}}
    state |= {"turns": 6, "house_rulings": {"pursuit": "none"}}
    events = [
        {"seq": 1, "action": 1, "kind": "game_started", "side": None},
        {"seq": 2, "action": 2, "kind": "combat_updated", "side": "a"},
    ]
    events[0]["payload"] = {"state": state}
    events[1]["payload"] = {
        "ended": 0,
        "free": ["a1.1"],
        "pursuit": "none",
        "house_ruling": "pursuit",
    }
    line = log_lines(events, ["a"])[-1]
    assert "Combat 1 is over" in line.text
    assert "house ruling: Do freed fighters make pursuit moves? none" in line.text
