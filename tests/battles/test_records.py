"""Records that tell the true story (issue 31): the games list shows the
agreed result, the log's filter by fighter keeps the lines naming it."""

from __future__ import annotations

import re

import pytest

from battles.league import services as league
from battles.services import games as services

pytestmark = pytest.mark.django_db


def perform(game, side, command, **kwargs):
    game.refresh_from_db()
    result = services.perform_action(game, side, command, **kwargs)
    game.refresh_from_db()
    return result


# --- "Your games" -------------------------------------------------------------------


def _status_line(page: str, opponent: str) -> str:
    (line,) = [li for li in re.findall(r"<li.*?</li>", page, re.S) if opponent in li]
    return line


def test_your_games_says_no_result_yet_until_both_phones_agree_then_who_won(
    game, owner_client
):
    perform(game, "a", {"type": "concede"})  # the engine's winner: B
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "no result yet" in line
    assert "won" not in line and "draw" not in line
    # Anne proposes that she won after all (the table's call), Bruno agrees.
    league.propose_game_outcome(game, "a", outcome="a", score_a=3, score_b=0)
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "no result yet" in line  # a proposal is no agreement
    league.confirm_game_outcome(game, "b")
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "Anne won" in line and "Bruno won" not in line


def test_your_games_shows_an_agreed_draw_as_a_draw(game, owner_client):
    perform(game, "b", {"type": "concede"})
    league.propose_game_outcome(game, "b", outcome="draw", score_a=1, score_b=1)
    league.confirm_game_outcome(game, "a")
    line = _status_line(owner_client.get("/games/").content.decode(), "Bruno")
    assert "a draw" in line


# --- the log's filter by fighter ----------------------------------------------------


def _line_texts(page: str) -> list[str]:
    return re.findall(r"<br>(.*?)(?: <span|</li>)", page)


def test_the_filter_by_fighter_keeps_exactly_the_lines_that_name_it(game, owner_client):
    from tests.support.live import play

    play(game, 260, seed=2)
    game.refresh_from_db()
    kinds = set(game.events.values_list("kind", flat=True))
    assert "combat_updated" in kinds  # the melee was reached
    url = f"/games/{game.public_id}/log"
    every = _line_texts(owner_client.get(url).content.decode())
    for fighter in ("a1.1", "b1.1"):
        label = game.state["fighters"][fighter]["label"]
        named = re.compile(rf"(?<!\w){re.escape(label)}(?![\w])")
        only = _line_texts(owner_client.get(url, {"fighter": fighter}).content.decode())
        assert only, fighter
        assert all(named.search(text) for text in only)
        assert len(only) == sum(1 for text in every if named.search(text))


# --- the log proves the story -------------------------------------------------------


def play_to_the_end(game, seed=4):
    import random

    from tests.support.game_bot import next_command

    rng = random.Random(seed)
    for _ in range(3000):
        game.refresh_from_db()
        if game.finished:
            return game
        side, command = next_command(game.state, rng)
        services.perform_action(game, side, command)
    raise AssertionError("the bot did not finish the game")


def test_verify_game_replays_the_log_and_refuses_a_result_edited_to_match(
    game, owner_client, tmp_path, capsys
):
    import json

    from django.core.management import CommandError, call_command

    game = play_to_the_end(game)
    log = owner_client.get(f"/games/{game.public_id}/log.json").json()
    assert log["format"] == "confrontation-game-log/2"
    firsts = [e for e in log["events"] if e["seq"] == e["action"]]
    assert all("command" in e for e in firsts if e["kind"] != "game_started")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    call_command("verify_game", str(path))
    out = capsys.readouterr().out
    assert "decided again by the rules" in out and "events match" in out
    assert f"All {len(log['events'])} events of the log are proven" in out
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    assert 'id="story-verdict"' in page and "message-success" in page
    assert "Every result of the log follows from its commands and faces" in page
    # A test's result turned round: the faces still match the seed, the story
    # does not (issue 31: verify_game proved the dice, not the results).
    test = next(e for e in log["events"] if e["kind"] == "test_resolved")
    test["payload"]["success"] = not test["payload"]["success"]
    path.write_text(json.dumps(log))
    with pytest.raises(
        CommandError, match=rf"at event {test['seq']} \(test_resolved\)"
    ):
        call_command("verify_game", str(path))
    out = capsys.readouterr().out
    assert "match the seed" in out  # the dice alone would have passed
    assert f"event {test['seq']} (test_resolved)" in out and "payload.success" in out
    # The faces alone can still be checked (a log from before commands).
    call_command("verify_game", str(path), "--dice-only")
    assert "Results not checked" in capsys.readouterr().out


def test_the_verify_page_names_the_first_event_the_rules_do_not_give(
    game, owner_client
):
    from battles.models import GameEvent

    game = play_to_the_end(game, seed=6)
    test = GameEvent.objects.filter(game=game, kind="test_resolved").first()
    test.payload = {**test.payload, "success": not test.payload["success"]}
    test.save(update_fields=["payload"])
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    assert "message-error" in page
    assert f"Event {test.seq} (test_resolved)" in page


# --- two phones ticking their own upkeep lines ----------------------------------------


def _to_upkeep_with_both_sides_lines(game):
    import random

    from rules.game import legal_actions
    from tests.support.game_bot import next_command

    rng = random.Random(7)
    for _ in range(3000):
        game.refresh_from_db()
        state = game.state
        if state["phase"] == "upkeep" and not state["pending"]:
            ticks = {
                side: [
                    e["choices"]["key"][0]
                    for e in legal_actions(state, side)
                    if e["type"] == "tick_upkeep"
                ]
                for side in ("a", "b")
            }
            if ticks["a"] and ticks["b"]:
                return game, ticks
        if game.finished:
            break
        side, command = next_command(state, rng)
        services.perform_action(game, side, command)
    pytest.skip("no upkeep with both sides' lines in this game")


def _tick(client, game, side, key, version):
    from tests.support.game_steps import act

    return act(client, game, side=side, type="tick_upkeep", key=key, version=version)


def test_two_phones_ticking_their_own_upkeep_lines_at_once_are_both_applied(
    game, owner_client, opponent_client
):
    game, ticks = _to_upkeep_with_both_sides_lines(game)
    version = game.version
    first = _tick(owner_client, game, "a", ticks["a"][0], version)
    assert first.status_code == 200
    # Bruno's phone tapped on the same version, before the push arrived.
    second = _tick(opponent_client, game, "b", ticks["b"][0], version)
    assert second.status_code == 200
    assert "moved on" not in second.content.decode()
    game.refresh_from_db()
    ticked = game.state["upkeep"]["ticked"] if game.state["upkeep"] else None
    kinds = list(game.events.filter(seq__gt=version).values_list("kind", "side"))
    assert ("upkeep_ticked", "a") in kinds and ("upkeep_ticked", "b") in kinds
    if ticked is not None:
        assert {ticks["a"][0], ticks["b"][0]} <= set(ticked)


def test_a_tap_on_an_older_version_after_another_kind_of_action_is_still_stale(
    game, owner_client
):
    perform(
        game, "a", {"type": "set_sequence", "order": game.state["sides"]["a"]["cards"]}
    )
    with pytest.raises(services.StaleAction):
        services.perform_action(
            game,
            "b",
            {"type": "tick_upkeep", "key": "x"},
            expected_version=game.version - 1,
        )


# --- wording and figures ----------------------------------------------------------


def test_three_in_thirty_six_reads_8_3_percent_even_where_the_row_misses_100():
    from django.utils import translation

    from battles.presenters.game.common import percents

    row = ["3/36", "3/36", "30/36"]  # 8,33 + 8,33 + 83,33: 99,9 once rounded
    with translation.override("fr"):
        assert percents(row) == ["8,3\u00a0%", "8,3\u00a0%", "83,3\u00a0%"]


def test_the_french_log_says_le_camp_b_prendra_la_parole():
    from django.utils import translation

    from battles.presenters.game.strategic import _first_chosen

    with translation.override("fr"):
        assert _first_chosen({"first": "b"}, "", {})[0] == (
            "Le camp B prendra la parole en premier."
        )
        assert _first_chosen({"first": "a"}, "", {})[0].startswith("Le camp A ")
    with translation.override("en"):
        assert _first_chosen({"first": "b"}, "", {})[0] == "Side B will speak first."


def test_enchainement_says_one_die_or_two_dice_in_french():
    from django.utils import translation

    from battles.presenters.game.combat import _placed_text

    placed = {"label": "Garde", "attack": 2, "defence": 1}
    with translation.override("fr"):
        one = _placed_text({**placed, "sequence": 1})
        two = _placed_text({**placed, "sequence": 2})
    assert "1 dé de plus (−2 en ATT et en DEF)" in one
    assert "2 dés de plus (−4 en ATT et en DEF)" in two
    with translation.override("en"):
        assert "1 extra die " in _placed_text({**placed, "sequence": 1})


def test_a_custom_cards_source_is_translated(griffons, make_card):
    from django.utils import translation

    from battles.models.armies import CardSource

    card = make_card(griffons, name="Maison", source=CardSource.CUSTOM)
    with translation.override("fr"):
        assert card.attribution == "personnalisé"
    with translation.override("en"):
        assert card.attribution == "custom"


def test_a_new_custom_card_lands_on_the_page_that_lists_it(guest_client, wolfen):
    from battles.models.armies import ReferenceCard

    response = guest_client.post(
        "/armies/cards/new/",
        {
            "name": "Chasseur",
            "people": wolfen.pk,
            "size": "normal",
            "base_shape": "square",
            "fighters_per_card": 1,
            "att": 4,
            "force": 6,
            "cou": 4,
            "cost": 21,
        },
        HTTP_HX_REQUEST="true",
    )
    card = ReferenceCard.objects.get(name="Chasseur")
    landing = response["HX-Redirect"]
    assert landing == f"/armies/?card={card.pk}#card-{card.pk}"
    page = guest_client.get(landing.split("#")[0]).content.decode()
    assert f'id="card-{card.pk}"' in page
    item = re.search(rf'<li id="card-{card.pk}".*?</li>', page, re.S).group(0)
    assert "Chasseur" in item and "créée" in item  # a French phone
    # Another person's page does not list it.
    from django.test import Client

    assert "Chasseur" not in Client().get("/armies/").content.decode()


def test_the_summary_shows_a_friendly_fire_kill_on_its_own_row():
    from types import SimpleNamespace

    from django.template.loader import render_to_string
    from django.utils import translation

    def side(**values):
        base = {
            "survivors": ["x"],
            "fighters": 3,
            "wound_steps_dealt": 0,
            "army_points_destroyed": 0,
            "eliminated_foes": 0,
            "friendly_fire_losses": 0,
            "tests": 0,
            "successes": 0,
            "expected": 0.0,
            "luck": 0.0,
            "typed_tests": 0,
        }
        return {**base, **values}

    summary = {
        "sides": {
            "a": side(
                eliminated_foes=1, friendly_fire_losses=1, army_points_destroyed=20
            ),
            "b": side(army_points_destroyed=35),  # A's friend shot down counts for B
        },
        "sequences": [],
    }
    with translation.override("en"):
        html = render_to_string(
            "battles/games/summary.html",
            {"summary": summary, "state": {}, "game": SimpleNamespace(public_id="abc")},
        )
    rows = dict(
        re.findall(r'<th scope="row">([^<]*)</th><td>([^<]*)</td><td>[^<]*</td>', html)
    )
    assert rows["Foes eliminated"] == "1"
    assert (
        rows[
            "Own fighters eliminated by friendly fire (their points count for the "
            "other side)"
        ]
        == "1"
    )


def test_a_game_logged_before_commands_were_recorded_is_said_unchecked_not_proven(
    game, owner_client, tmp_path, capsys
):
    import json

    from django.core.management import CommandError, call_command

    from battles.models import GameEvent

    perform(
        game, "a", {"type": "set_sequence", "order": game.state["sides"]["a"]["cards"]}
    )
    perform(game, "b", {"type": "concede"})
    GameEvent.objects.filter(game=game).update(command=None)  # an older game
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    verdict = re.search(r'<p class="message ([^"]*)" id="story-verdict">', page)
    assert verdict and verdict.group(1).strip() == ""  # neither green nor red
    assert "logged before commands were recorded" in page
    path = tmp_path / "old.json"
    path.write_text(
        json.dumps(owner_client.get(f"/games/{game.public_id}/log.json").json())
    )
    with pytest.raises(CommandError, match="cannot be proven"):
        call_command("verify_game", str(path))
    call_command("verify_game", str(path), "--dice-only")


def test_single_event_tamperings_of_a_downloaded_log_are_all_refused(
    game, owner_client
):
    """The app's own log.json (a bot's whole game), tampered one event at a
    time (a field changed, an event dropped or duplicated): every one is
    refused, or the game it tells is the very same (rules.story)."""
    import copy
    import random

    from rules.game import effective_events
    from rules.story import check_story

    game = play_to_the_end(game, seed=8)
    log = owner_client.get(f"/games/{game.public_id}/log.json").json()
    original = log["events"]
    assert check_story(original, log["dice_mode"], finished=True).proven

    def story(events):
        return [(e["kind"], e["side"], e["payload"]) for e in effective_events(events)]

    rng = random.Random(31)
    refused = 0
    for _ in range(40):
        events = copy.deepcopy(original)
        index = rng.randrange(1, len(events))
        how = rng.choice(["change", "drop", "duplicate"])
        if how == "drop":
            del events[index]
        elif how == "duplicate":
            events.insert(index, copy.deepcopy(events[index]))
        else:
            event = events[index]
            target, key = event, rng.choice(["kind", "side", "payload", "dice"])
            value = event[key]
            while isinstance(value, dict) and value:
                target, key = value, rng.choice(sorted(value))
                value = value[key]
            if isinstance(value, bool):
                target[key] = not value
            elif isinstance(value, int):
                target[key] = value + 1
            elif isinstance(value, list) and value:
                target[key] = value[:-1]
            else:
                target[key] = "x" if value != "x" else "y"
        check = check_story(events, log["dice_mode"], finished=True)
        if check.proven:
            assert story(events) == story(original), (how, index)
        else:
            refused += 1
            assert check.difference is not None
    assert refused >= 30
