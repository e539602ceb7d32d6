"""Issue 23: the dice mode decided by both, typed faces marked everywhere, dice
anyone can check (/verify, the log as JSON, ``manage.py verify_game``), the
whole log, a shot into a melee and the upkeep habits, through the views."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.core.management import CommandError, call_command

from battles.models import GameEvent
from battles.services import games as services
from rules.dice import derive_faces, roll_seed
from rules.errors import IllegalAction
from tests.support.game_bot import next_command
from tests.support.game_steps import act, to_activation, to_first_choice

pytestmark = pytest.mark.django_db


def perform(game, side, command, **kwargs):
    game.refresh_from_db()
    result = services.perform_action(game, side, command, **kwargs)
    game.refresh_from_db()
    return result


def to_tactics_roll(game):
    """Both sequences set, both Tactics fighters named: the roll is next."""
    for side in ("a", "b"):
        cards = game.state["sides"][side]["cards"]
        perform(game, side, {"type": "set_sequence", "order": cards})
    for side in ("a", "b"):
        fighter = next(
            f
            for f, data in game.state["fighters"].items()
            if data["side"] == side
            and game.state["cards"][data["card"]]["profile"]["DIS"]
        )
        perform(game, side, {"type": "choose_tactics_fighter", "fighter": fighter})
    assert game.state["step"] == "tactics"
    return game


def a_shot_to_roll(game):
    game = to_activation(game)
    perform(game, "a", {"type": "draw", "action": "draw"})
    perform(
        game,
        "a",
        {"type": "shoot", "fighter": "a1.1", "target": "b1.1", "distance_cm": 5},
    )
    return game


def play_to_the_end(game, seed=4):
    rng = random.Random(seed)
    for _ in range(3000):
        game.refresh_from_db()
        if game.finished:
            return game
        side, command = next_command(game.state, rng)
        services.perform_action(game, side, command)
    raise AssertionError("the bot did not finish the game")


# --- the dice mode ------------------------------------------------------------------


def test_in_app_dice_mode_the_shooter_cannot_type_the_six_it_wants(game, owner_client):
    game = a_shot_to_roll(game)
    version, count = game.version, game.events.count()
    response = act(owner_client, game, side="a", type="roll", faces="6")
    assert response.status_code == 200
    assert "faces cannot be typed" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and game.events.count() == count
    # The app's own roll is still there to tap.
    assert (
        'name="faces"'
        not in owner_client.get(f"/games/{game.public_id}/board").content.decode()
    )


def test_side_b_cannot_type_the_tactics_roll_it_would_win(game, opponent_client):
    game = to_tactics_roll(game)
    version = game.version
    response = act(opponent_client, game, side="b", type="roll", faces="1 6")
    assert "faces cannot be typed" in response.content.decode()
    with pytest.raises(services.GameError):
        services.perform_action(game, "b", {"type": "roll"}, faces=[1, 6])
    game.refresh_from_db()
    assert game.version == version


def test_a_switch_to_real_dice_needs_the_other_phone_and_is_logged(
    game, owner_client, opponent_client
):
    url = f"/games/{game.public_id}/dice-mode"
    owner_client.post(
        url, {"mode": "entered", "version": game.version}, HTTP_HX_REQUEST="true"
    )
    game.refresh_from_db()
    assert game.dice_mode == "app"  # not before B's word
    assert services.pending_dice_mode_request(game)["answerer"] == "b"
    with pytest.raises(services.GameError):  # A cannot answer its own request
        services.answer_dice_mode(game, "a", agree=True)
    page_b = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Agree to switch" in page_b
    assert "asks to switch the dice to faces typed from real dice" in page_b
    opponent_client.post(
        url + "/answer",
        {"agree": "1", "version": game.version, "side": "b"},
        HTTP_HX_REQUEST="true",
    )
    game.refresh_from_db()
    assert game.dice_mode == "entered"
    changed = game.events.get(kind="dice_mode_changed")
    assert changed.payload == {"mode": "entered", "asked_by": "a", "agreed_by": "b"}
    assert services.replayed_state(game) == game.state
    log = owner_client.get(f"/games/{game.public_id}/log").content.decode()
    assert "the game now rolls faces typed from real dice" in log
    # The switch is no action to undo: nothing of A's own is left to take back.
    with pytest.raises(services.IllegalAction):
        services.undo_last_action(game, "a")


def test_a_refused_switch_leaves_the_dice_as_they_were(game):
    services.request_dice_mode(game, "b", "entered")
    game.refresh_from_db()
    with pytest.raises(services.GameError):  # asked once at a time
        services.request_dice_mode(game, "b", "entered")
    services.answer_dice_mode(game, "a", agree=False)
    game.refresh_from_db()
    assert game.dice_mode == "app"
    assert game.events.last().kind == "dice_mode_refused"
    assert services.pending_dice_mode_request(game) is None


def test_on_one_phone_the_switch_is_made_at_once_and_logged(demo_armies):
    from tests.support.live import new_game

    game = new_game(mode="one_phone")
    services.request_dice_mode(game, "a", "entered")
    game.refresh_from_db()
    assert game.dice_mode == "entered"
    assert game.events.last().kind == "dice_mode_changed"
    with pytest.raises(services.GameError):  # already so
        services.request_dice_mode(game, "a", "entered")


def test_typed_faces_are_marked_on_both_phones_on_verify_and_in_the_luck(
    game, owner_client, opponent_client
):
    game = a_shot_to_roll(game)
    game.dice_mode = "entered"
    game.save(update_fields=["dice_mode"])
    act(owner_client, game, side="a", type="roll", faces="5")
    game.refresh_from_db()
    first = game.events.filter(dice_source="entered").get()
    assert first.dice == [5]
    for phone in (owner_client, opponent_client):
        board = phone.get(f"/games/{game.public_id}/board").content.decode()
        assert "typed dice" in board
    log = opponent_client.get(f"/games/{game.public_id}/log").content.decode()
    assert "typed dice" in log
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    assert "typed dice" in page
    summary = services.game_summary(game)["sides"]["a"]
    # The Tactics roll (the app's dice) counts in the luck, the shot (typed)
    # apart (issue 31: the luck figures exclude typed faces).
    assert (summary["typed_tests"], summary["tests"]) == (1, 1)


# --- checking the dice ---------------------------------------------------------------


def test_verify_gives_the_formula_and_each_roll_its_number_bytes_and_faces(
    game, owner_client
):
    game = a_shot_to_roll(game)
    perform(game, "a", {"type": "roll"})
    game = play_to_the_end(game)
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    assert "event number" not in page  # the old, wrong wording
    assert "HMAC-SHA256" in page and "mod 6 + 1" in page
    drawn = game.events.filter(kind="dice_drawn").order_by("seq").first()
    roll = drawn.payload["roll"]
    key = roll_seed(game.dice_seed, roll)
    derivation = derive_faces(key, len(drawn.payload["faces"]))
    assert derivation.faces == tuple(drawn.payload["faces"])  # the game's own dice
    assert f"Roll number {roll}" in page
    assert key in page
    assert derivation.blocks[0][1] in page  # the bytes hashed, and their digest
    assert "All" in page and "match the seed" in page


def test_the_verify_command_recomputes_a_downloaded_log_and_finds_a_tampered_face(
    game, owner_client, tmp_path, capsys
):
    assert owner_client.get(f"/games/{game.public_id}/log.json").status_code == 409
    game = play_to_the_end(game)
    response = owner_client.get(f"/games/{game.public_id}/log.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    log = response.json()
    assert log["seed"] == game.dice_seed and len(log["events"]) == game.version
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    call_command("verify_game", str(path))
    seeded = GameEvent.objects.filter(game=game, dice_source="seeded").count()
    assert f"{seeded} of {seeded} app-rolled rolls match the seed" in (
        capsys.readouterr().out
    )
    # One face changed in the log (and in its dice_drawn event, to agree).
    event = next(e for e in log["events"] if e["dice_source"] == "seeded")
    event["dice"][0] = event["dice"][0] % 6 + 1
    for other in log["events"]:
        if other["kind"] == "dice_drawn" and other["action"] == event["action"]:
            other["payload"]["faces"][0] = event["dice"][0]
    path.write_text(json.dumps(log))
    with pytest.raises(CommandError, match="do not match"):
        call_command("verify_game", str(path))
    assert f"event {event['seq']}" in capsys.readouterr().out
    # A seed that is not the one fingerprinted from the start is refused.
    log["seed"] = "0" * 64
    path.write_text(json.dumps(log))
    with pytest.raises(CommandError, match="fingerprint"):
        call_command("verify_game", str(path))


# --- the whole log ---------------------------------------------------------------


def test_the_log_page_holds_every_line_newest_first_or_by_turn_and_by_fighter(
    game, owner_client
):
    from tests.support.live import play

    play(game, 60, seed=2)
    game.refresh_from_db()
    url = f"/games/{game.public_id}/log"
    page = owner_client.get(url).content.decode()
    newest = [int(seq) for seq in _line_seqs(page)]
    assert len(newest) > 6 and newest == sorted(newest, reverse=True)
    by_turn = owner_client.get(url, {"order": "turn"}).content.decode()
    assert [int(s) for s in _line_seqs(by_turn)] == sorted(newest)
    assert 'id="turn-1"' in by_turn
    fighter = "a1.1"
    label = game.state["fighters"][fighter]["label"]
    only = owner_client.get(url, {"fighter": fighter}).content.decode()
    lines = _line_texts(only)
    assert 0 < len(lines) < len(newest)
    # Every line naming it is there (and a shot into a melee it stands in,
    # where it is the friend at risk).
    naming = [line for line in _line_texts(page) if line.startswith(label)]
    assert naming and set(naming) <= set(lines)
    # A tampered filter shows everything rather than failing.
    assert owner_client.get(url, {"fighter": "zz", "order": "x"}).status_code == 200


def _line_seqs(page: str) -> list[str]:
    import re

    return re.findall(r'<li class="[^"]*"><span class="muted small">(\d+) ·', page)


def _line_texts(page: str) -> list[str]:
    import re

    return re.findall(r"<br>(.*?)</li>", page)


# --- shooting into a melee -------------------------------------------------------


def test_a_shot_into_a_melee_with_two_friends_asks_the_nearest_and_keeps_the_distance(
    game, owner_client
):
    game = to_activation(game)
    perform(game, "a", {"type": "draw", "action": "draw"})
    for friend in ("a2.1", "a2.2"):
        perform(
            game,
            "a",
            {"type": "set_contact", "one": friend, "two": "b1.1", "contact": True},
        )
    page = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert 'name="nearest_friend"' in page
    version = game.version
    response = act(
        owner_client,
        game,
        side="a",
        type="shoot",
        fighter="a1.1",
        target="b1.1",
        distance_cm="12.5",
    )
    page = response.content.decode()
    game.refresh_from_db()
    assert game.version == version  # refused, nothing written
    form = page[page.index('class="compact-form shot-form"') :]
    form = form[: form.index("</form>")]
    assert "nearest to the shooter" in form  # the message, inside the form
    assert 'value="12.5"' in form  # the distance as typed
    assert 'aria-invalid="true"' in form
    act(
        owner_client,
        game,
        side="a",
        type="shoot",
        fighter="a1.1",
        target="b1.1",
        distance_cm="12.5",
        nearest_friend="a2.2",
    )
    game.refresh_from_db()
    assert game.state["pending"]["context"]["nearest_friend"] == "a2.2"


# --- upkeep habits ------------------------------------------------------------------


def test_the_next_turns_sequence_starts_from_the_last_one(game, owner_client):
    cards = game.state["sides"]["a"]["cards"]
    mine = list(reversed(cards))
    perform(game, "a", {"type": "set_sequence", "order": mine})
    game = play_to_turn(game, 2)
    page = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    # The draft's cards, in the order the page lists them: the last turn's.
    shown = [c for c in re.findall(r'name="order" value="([^"]+)"', page)]
    alive = set(game.state["sides"]["a"]["cards"])
    assert shown == [c for c in mine if c in shown and c in alive]
    assert shown != [c for c in cards if c in shown]


def play_to_turn(game, turn, seed=3):
    rng = random.Random(seed)
    for _ in range(3000):
        game.refresh_from_db()
        if game.state["turn"] >= turn or game.finished:
            return game
        side, command = next_command(game.state, rng)
        services.perform_action(game, side, command)
    raise AssertionError("the bot did not get there")


# --- the mystic action ----------------------------------------------------------------


def test_the_mystic_action_opens_the_spell_test_with_its_caster_and_spends_the_mana(
    game, owner_client
):
    mage = next(
        f
        for f, data in game.state["fighters"].items()
        if data["side"] == "a"
        and game.state["cards"][data["card"]]["profile"].get("POU") is not None
    )
    card = game.state["fighters"][mage]["card"]
    cards = game.state["sides"]["a"]["cards"]
    order = [card] + [c for c in cards if c != card]
    perform(game, "a", {"type": "set_sequence", "order": order})
    game = to_activation(game)
    perform(game, "a", {"type": "set_mystic", "fighter": mage, "mana": 3})
    perform(game, "a", {"type": "draw", "action": "draw"})
    assert mage in game.state["active"]["fighters"]
    board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Mystic action · " not in board  # no movement distance for it
    page = act(
        owner_client, game, side="a", type="declare", fighter=mage, action="mystic"
    ).content.decode()
    tool = page[page.index('id="table-test"') :]
    assert tool.startswith('id="table-test" open')
    assert f'<option value="{mage}" selected>' in tool
    assert '<option value="POU" selected>' in tool
    assert '<option value="spell" selected>' in tool
    assert "Left: 3 mana" in tool
    spell = {
        "side": "a",
        "type": "characteristic_test",
        "fighter": mage,
        "characteristic": "POU",
        "use": "spell",
        "difficulty": "7",
    }
    game.refresh_from_db()
    version = game.version
    refused = act(owner_client, game, **spell, cost="5").content.decode()
    assert "not 5" in refused
    game.refresh_from_db()
    assert game.version == version
    act(owner_client, game, **spell, cost="2")
    game.refresh_from_db()
    assert game.state["fighters"][mage]["mana"] == 1
    assert game.state["pending"]["context"]["use"] == "spell"
    assert services.replayed_state(game) == game.state


# --- the small things -------------------------------------------------------------


def test_percentages_are_rounded_each_to_its_nearest_tenth():
    """Issue 31: no figure of a row is bent to make the row add up to 100."""
    from django.utils import translation

    from battles.presenters.game.common import percent, percents
    from rules.odds import wound_outcomes

    with translation.override("en"):
        assert percent("2/3") == "66.7\u00a0%"  # not truncated to 66.6
        assert percent("1/3") == "33.3\u00a0%"
        row = percents(["1/3", "1/3", "1/3"])
        assert row == ["33.3\u00a0%"] * 3  # 99.9: the truth, rounded
        for strength, resistance in ((6, 6), (7, 5), (3, 9), (12, 4)):
            odds = [p for p in wound_outcomes(strength, resistance).values() if p]
            assert percents(odds) == [percent(p) for p in odds]


def test_the_tactics_result_puts_the_winners_score_first_and_says_whose_it_is():
    from django.utils import translation

    from battles.presenters.game.rolls import EVENTS

    payload = {"winner": "b", "rounds": [[4, 12]]}
    with translation.override("en"):
        text, section = EVENTS["tactics_won"](payload, "", {})
        rolled, _section = EVENTS["roll_updated"](
            {"faces": [3, 4], "pending": {"kind": "opposed", "purpose": "tactics"}},
            "",
            {},
        )
    assert text == "Tactics roll: side B wins, 12 against 4 for side A."
    assert (
        "Roll for" not in rolled and "for side A" in rolled and "for side B" in rolled
    )


def test_a_namesakes_side_and_a_demo_army_are_said_once():
    from battles.forms.games import ArmyChoiceField
    from battles.presenters.game.table_rolls import side_tag
    from tests.support.live import demo_armies

    assert side_tag("Guerrier 1 (B)", "b") == ""
    assert side_tag("Guerrier 1", "b") == "(B)"
    griffons, _wolfen = demo_armies()
    label = ArmyChoiceField(queryset=None).label_from_instance(griffons)
    assert label.lower().count("démo") + label.lower().count("demo") == 1, label


def test_the_weapon_and_the_catalogue_take_the_french_space_before_a_colon(db):
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    card = SimpleNamespace(
        characteristics=[],
        mou_flight=None,
        aspects=False,
        has_weapon=True,
        weapon_name="Pistolet",
        weapon_strength=6,
        range_short=10,
        range_medium=20,
        range_long=30,
        abilities_text="",
    )
    with translation.override("fr"):
        html = render_to_string("battles/armies/profile_line.html", {"card": card})
        from battles.models.armies import CardSource, ReferenceCard

        sourced = ReferenceCard(source=CardSource.CATALOGUE, source_detail="Wolfen")
        assert sourced.attribution == "catalogue : Wolfen"
    assert "Pistolet : FOR 6" in html


def test_your_games_lists_the_opponent_the_turn_and_whose_move_it_is(
    game, owner_client, opponent_client
):
    page = owner_client.get("/games/").content.decode()
    assert "against Bruno" in page
    assert "turn 1 of 6" in page and "Strategic" in page
    assert "your move" in page or "waiting for" in page
    assert "against Anne" in opponent_client.get("/games/").content.decode()


def test_the_lasting_effects_box_is_not_under_the_final_summary(game, owner_client):
    effect = {
        "type": "record_effect",
        "fighter": "a1.1",
        "name": "Brume",
        "kind": "other",
        "duration": "permanent",
    }
    perform(game, "a", effect)
    board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "table-effects" in board and "Brume" in board
    perform(game, "a", {"type": "concede"})
    board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "table-effects" not in board


def test_a_phone_cannot_agree_to_its_own_switch_of_dice_by_forging_the_side(
    game, owner_client
):
    services.request_dice_mode(game, "a", "entered")
    game.refresh_from_db()
    response = owner_client.post(
        f"/games/{game.public_id}/dice-mode/answer",
        {"agree": "1", "version": game.version, "side": "b"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.dice_mode == "app"
    assert services.pending_dice_mode_request(game) is not None


def test_upkeep_a_phone_offers_its_own_markers_in_one_tap_never_the_others(
    game, owner_client
):
    rng = random.Random(7)
    for _ in range(3000):  # to the markers of an upkeep with both sides' markers
        game.refresh_from_db()
        state = game.state
        upkeep = state.get("upkeep") if state["phase"] == "upkeep" else None
        if upkeep and not state["pending"]:
            waiting = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
            if waiting[0]["step"] == "markers":
                sides = [i["side"] for i in waiting]
                if sides.count("a") >= 2 and "b" in sides:
                    break
        if game.finished:
            pytest.skip("no upkeep with both sides' markers in this game")
        side, command = next_command(state, rng)
        services.perform_action(game, side, command)
    else:
        raise AssertionError("no upkeep reached")
    waiting = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
    theirs = [i["key"] for i in waiting if i["side"] == "b"]
    mine = [i["key"] for i in waiting if i["side"] == "a"]
    page = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    for key in theirs:
        assert f'name="key" value="{key}"' not in page
    assert f"Remove all {len(mine)} markers of side A" in page
    act(owner_client, game, side="a", type="tick_upkeep", key=mine[0], all_markers="1")
    game.refresh_from_db()
    if game.state["phase"] == "upkeep":
        ticked = set(game.state["upkeep"]["ticked"])
        assert set(mine) <= ticked and not set(theirs) & ticked


# --- the upkeep's mystic reserves (X-G-1, XI-B-2) ------------------------------------


def to_reserve_line(game, step):
    """Play on to the first upkeep with a ``step`` (mana, faith) line to tick."""
    rng = random.Random(5)
    for _ in range(3000):
        game.refresh_from_db()
        state = game.state
        if state["phase"] == "upkeep" and not state["pending"]:
            upkeep = state["upkeep"]
            waiting = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
            if waiting and waiting[0]["step"] == step:
                return game, waiting[0]
        if game.finished:
            break
        side, command = next_command(state, rng)
        services.perform_action(game, side, command)
    raise AssertionError(f"no {step} line reached")


def test_in_app_dice_mode_a_player_cannot_type_99_mana_and_the_log_says_the_value(
    game, owner_client, opponent_client
):
    game, item = to_reserve_line(game, "mana")
    mage = item["fighter"]
    side = item["side"]
    client = owner_client if side == "a" else opponent_client
    high = game.state["cards"][game.state["fighters"][mage]["card"]]["profile"]["POU"]
    before = game.state["fighters"][mage]["mana"]
    version, count = game.version, game.events.count()
    page = client.get(f"/games/{game.public_id}/board").content.decode()
    assert f'name="value" type="number" min="{before}" max="{high}"' in page
    key = item["key"]
    response = act(client, game, side=side, type="tick_upkeep", key=key, value=99)
    assert response.status_code == 200
    assert f"give {before} to {high}" in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and game.events.count() == count
    assert game.state["fighters"][mage]["mana"] == before
    # Within the bounds: taken, and the log on either phone gives the value.
    act(client, game, side=side, type="tick_upkeep", key=item["key"], value=high)
    game.refresh_from_db()
    assert game.state["fighters"][mage]["mana"] == high
    for phone in (owner_client, opponent_client):
        log = phone.get(f"/games/{game.public_id}/log").content.decode()
        assert f"Mana {before} → {high}" in log
        assert f"at most {high}: the card" in log


def test_the_new_temporary_faith_is_never_above_the_cards_faith(game):
    game, item = to_reserve_line(game, "faith")
    fighter = item["fighter"]
    high = game.state["cards"][game.state["fighters"][fighter]["card"]]["profile"][
        "FOI"
    ]
    version = game.version
    with pytest.raises(IllegalAction, match=f"0 to {high}"):
        services.perform_action(
            game, item["side"], {"type": "tick_upkeep", "key": item["key"], "value": 99}
        )
    game.refresh_from_db()
    assert game.version == version


def test_the_verify_formula_is_in_french_on_a_french_phone(game, owner_client):
    game = a_shot_to_roll(game)
    perform(game, "a", {"type": "roll"})
    game = play_to_the_end(game)
    url = f"/games/{game.public_id}/verify"
    page = owner_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    formula = re.search(r'<p class="small muted"><code class="wrap">(.*?)</code>', page)
    assert formula, "the formula's code block"
    text = formula.group(1)
    # The words are French; the identifiers (HMAC-SHA256, ":roll:", mod) stay.
    assert "clé = &quot;&lt;graine&gt;:roll:&lt;numéro du jet&gt;&quot;" in text
    assert "chaque octet sous 252 donne face = octet mod 6 + 1" in text
    for english in ("each byte", "below", "skipped", "bytes", "roll number", "key"):
        assert english not in text
    assert "Bloc 0 : HMAC-SHA256(clé, " in page
    english = owner_client.get(url).content.decode()
    assert "key = &quot;&lt;seed&gt;:roll:&lt;roll number&gt;&quot;" in english


# --- the log's first line and the Tactics roll's fighters --------------------------


def test_the_first_line_names_the_player_who_joined_after_the_start(
    demo_armies, owner_client, opponent_client
):
    from battles.models import SeatRole
    from battles.services import sharing
    from battles.services.games import create_game
    from tests.support.cast import Owner

    army_a, army_b = demo_armies
    game = create_game(
        owner=Owner(guest_key="owner-key"),
        army_a=army_a,
        army_b=army_b,
        player_a="Anne",
    )
    link = sharing.make_join_link(game, SeatRole.SIDE_B)
    sharing.claim_seat(link.token, Owner(guest_key="opponent-key"), "Bruno")
    game.refresh_from_db()
    assert game.state["sides"]["b"]["name"] != "Bruno"  # the army's, as created
    for phone in (owner_client, opponent_client):
        log = phone.get(f"/games/{game.public_id}/log").content.decode()
        assert "Game started: Anne against Bruno" in log


def test_the_tactics_roll_says_which_fighters_rolled_once_it_is_made(game):
    # The seeded dice may roll a six to decide on, or a tie to roll again:
    # the roll is played through to its winner.
    game = to_first_choice(game)
    fighters = {s: game.state["tactics"]["fighters"][s] for s in ("a", "b")}
    labels = {s: game.state["fighters"][f]["label"] for s, f in fighters.items()}
    won = game.events.get(kind="tactics_won").as_rules_event()
    from django.utils import translation

    from battles.presenters.log import log_lines

    with translation.override("en"):
        text = log_lines([won], ["a"], state=game.state)[0].text
    dis = won["payload"]["values"]
    assert (
        f"{labels['a']} (DIS {dis['a']}) rolled for side A, "
        f"{labels['b']} (DIS {dis['b']}) for side B." in text
    )


# --- the side word within a sentence --------------------------------------------------


def test_the_side_is_lower_case_within_a_sentence_in_french_and_english():
    from django.utils import translation

    from battles.presenters.game.common import wait_panel
    from battles.presenters.game.rolls import EVENTS
    from battles.presenters.words import side_word

    payload = {
        "winner": "a",
        "rounds": [[10, 4]],
        "values": {"a": 6, "b": 3},
        "labels": {"a": "Magistrat", "b": "Magicien"},
    }
    with translation.override("fr"):
        assert side_word("b") == "Camp B"  # opening a sentence
        assert wait_panel("b", "x").title == "En attente du camp B : x"
        text, _section = EVENTS["tactics_won"](payload, "", {})
        assert text == (
            "Jet de Tactique : le camp A l'emporte, 10 contre 4 pour le camp B. "
            "Magistrat (DIS 6) a lancé pour le camp A, "
            "Magicien (DIS 3) pour le camp B."
        )
        assert translation.gettext("locked by the Tactics roll").startswith(
            "séquence figée"
        )
    with translation.override("en"):
        assert wait_panel("b", "x").title == "Waiting for side B: x"
        text, _section = EVENTS["tactics_won"](payload, "", {})
        assert text.startswith("Tactics roll: side A wins, 10 against 4 for side B.")


def test_the_verify_command_says_a_deeply_nested_file_is_not_a_log(tmp_path):
    """Issue 30: a file nested deeper than the parser goes is refused in one
    line, with no traceback."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CommandError, match="Not a game log: nested too deeply"):
        call_command("verify_game", str(path))
    path.write_text(json.dumps({"seed": ["x"], "seed_sha256": {}, "events": []}))
    with pytest.raises(CommandError, match="Not a game log"):
        call_command("verify_game", str(path))
