"""Games through the services and the views: set-up, actions, privacy, bad input."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from battles.models import Game, GameEvent
from battles.services import games as services
from rules.errors import IllegalAction
from tests.support.cast import phone_of
from tests.support.game_bot import next_command
from tests.support.game_steps import act, to_activation
from tests.support.live import guests_game, new_game_form

pytestmark = pytest.mark.django_db


def test_creating_a_game_makes_me_side_a(owner_client, demo_armies):
    army_a, army_b = demo_armies
    response = owner_client.post(
        "/games/new/",
        new_game_form(army_a, army_b),
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.state["turns"] == 4
    assert list(game.seats.values_list("role", "guest_key")) == [("a", "owner-key")]
    assert GameEvent.objects.filter(game=game).count() == 1
    assert len(game.dice_seed_hash) == 64


def test_a_bad_setup_is_refused_and_saves_nothing(owner_client, demo_armies):
    army_a, _ = demo_armies
    response = owner_client.post(
        "/games/new/",
        {"army_a": army_a.pk, "army_b": 99999, "turns": 0, "mode": "x"},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "errorlist" in body
    assert Game.objects.count() == 0


def test_the_game_page_is_full_and_the_board_a_fragment(owner_client, game):
    page = owner_client.get(f"/games/{game.public_id}/")
    assert page.status_code == 200 and "<html" in page.content.decode()
    fragment = owner_client.get(f"/games/{game.public_id}/", HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode()
    assert "HX-Request" in fragment["Vary"]
    board = owner_client.get(f"/games/{game.public_id}/board")
    assert board["X-Game-Version"] == str(game.version)
    assert "<html" not in board.content.decode()


@pytest.mark.parametrize("path", ["/board", "/log", "/verify"])
def test_an_outsider_sees_nothing_of_a_game(game, path):
    outsider = Client()
    phone_of("outsider-key", outsider)
    response = outsider.get(f"/games/{game.public_id}{path}")
    assert response.status_code == 404


def test_a_game_page_without_a_seat_says_how_to_join_and_shows_nothing(game):
    outsider = Client(HTTP_ACCEPT_LANGUAGE="en")
    phone_of("outsider-key", outsider)
    page = outsider.get(f"/games/{game.public_id}/")
    unknown = outsider.get("/games/AAAAAAAAAAAA/")
    html = page.content.decode()
    assert page.status_code == 200 and "Join or watch a game" in html
    assert "Anne" not in html and "Bruno" not in html and str(game) not in html
    # A game that does not exist gets the very same page: nothing is learnt.
    assert unknown.status_code == 200
    main = html.split('<main id="main" class="page">')[1].split("</main>")[0]
    assert main in unknown.content.decode().replace("AAAAAAAAAAAA", game.public_id)


def test_an_outsider_cannot_act(game):
    outsider = Client()
    phone_of("outsider-key", outsider)
    response = act(outsider, game, type="set_sequence", side="a")
    assert response.status_code == 404


def test_a_phone_cannot_act_for_the_other_side(game, opponent_client):
    cards = game.state["sides"]["a"]["cards"]
    response = act(opponent_client, game, type="set_sequence", side="a", order=cards)
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.state["sequences"]["a"] is None
    assert game.version == 1


def test_a_stale_tap_is_refused_and_changes_nothing(game, owner_client):
    cards = game.state["sides"]["a"]["cards"]
    response = act(
        owner_client, game, type="set_sequence", side="a", order=cards, version=0
    )
    assert response.status_code == 200
    assert "moved on" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1


def test_a_double_tap_applies_once(game, owner_client):
    cards = game.state["sides"]["a"]["cards"]
    data = {"type": "set_sequence", "side": "a", "order": cards, "tap": "tap-1"}
    first = act(owner_client, game, **data)
    second = owner_client.post(
        f"/games/{game.public_id}/act", {**data, "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert first.status_code == second.status_code == 200
    game.refresh_from_db()
    assert game.events.filter(kind="sequence_set").count() == 1


def test_the_same_tap_key_with_another_action_is_refused(game):
    cards = game.state["sides"]["a"]["cards"]
    services.perform_action(
        game, "a", {"type": "set_sequence", "order": cards}, idempotency_key="k"
    )
    with pytest.raises(services.KeyReused):
        services.perform_action(
            game,
            "a",
            {"type": "set_sequence", "order": list(reversed(cards))},
            idempotency_key="k",
        )


def test_a_used_tap_key_sent_on_the_current_version_changes_nothing(game):
    """Applying a tap moves the version past it, so its key comes back on
    the current version only from a forged request: the unique key refuses
    it, in words, and nothing is written."""
    cards = game.state["sides"]["a"]["cards"]
    services.perform_action(
        game, "a", {"type": "set_sequence", "order": cards}, idempotency_key="k"
    )
    game.refresh_from_db()
    before = (game.version, game.events.count(), game.state)
    with pytest.raises(services.StaleAction):
        services.perform_action(
            game,
            "b",
            {"type": "set_sequence", "order": game.state["sides"]["b"]["cards"]},
            expected_version=game.version,
            idempotency_key="k",
        )
    game.refresh_from_db()
    assert (game.version, game.events.count(), game.state) == before


def test_an_action_out_of_phase_gets_a_clear_message(game, owner_client):
    response = act(owner_client, game, type="draw", side="a", action="draw")
    assert response.status_code == 200
    assert "message-error" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.parametrize("faces", ["7", "0 3", "abc", "1" * 30])
def test_faces_outside_1_to_6_are_refused(game, owner_client, faces):
    game = to_activation(game)
    version = game.version
    response = act(owner_client, game, type="roll", side="a", faces=faces)
    assert response.status_code == 200
    assert "message-error" in response.content.decode() or "field-error" in (
        response.content.decode()
    )
    game.refresh_from_db()
    assert game.version == version


@pytest.mark.parametrize(
    "data",
    [
        {"type": "nonsense"},
        {"type": "shoot", "fighter": "a1.1", "target": "b1.1", "distance_cm": "far"},
        {"type": "choose_combat", "combat": "-1"},
        {"type": "place_dice", "fighter": "a1.1", "attack": "99"},
        {"type": "parry", "dice": "-1"},
        {"type": "declare", "fighter": "x" * 500, "action": "walk"},
    ],
)
def test_a_tampered_tap_gets_a_message_never_a_500(game, owner_client, data):
    response = act(owner_client, game, side="a", **data)
    assert response.status_code == 200
    assert "message-error" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1


def test_an_eliminated_fighter_cannot_act(game):
    game = to_activation(game)
    fighter = game.state["sides"]["a"]["cards"][0] + ".1"
    state = game.state
    state["fighters"][fighter]["eliminated"] = True
    with pytest.raises(IllegalAction, match="eliminated"):
        from rules.dice import ScriptedDice
        from rules.game import decide

        decide(
            state,
            "a",
            {"type": "shoot", "fighter": fighter, "target": "b1.1", "distance_cm": 5},
            ScriptedDice([]),
        )


def test_the_opponent_never_sees_my_sequence_or_my_reserve(
    game, owner_client, opponent_client
):
    cards = game.state["sides"]["a"]["cards"]
    order = list(reversed(cards))
    names = [game.state["cards"][c]["name"] for c in order]
    owner_client.post(
        f"/games/{game.public_id}/sequence",
        {"card": order[0], "direction": "up"},
        HTTP_HX_REQUEST="true",
    )
    services.perform_action(game, "a", {"type": "set_sequence", "order": order})
    opponent_board = opponent_client.get(f"/games/{game.public_id}/board").content
    for card in cards:  # A's card ids appear only in A's own sequence form
        assert f'value="{card}"'.encode() not in opponent_board
    own_board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Your sequence is set" in own_board
    assert names
    game = to_activation(game)
    services.perform_action(game, "a", {"type": "draw", "action": "reserve"})
    game.refresh_from_db()
    reserved = game.state["draw"]["reserved"]["a"]
    reserved_name = game.state["cards"][reserved]["name"]
    mine = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    theirs = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    assert f"<td>{reserved_name}</td>" in mine
    assert f"<td>{reserved_name}</td>" not in theirs
    assert "1 card" in theirs or "1 carte" in theirs


def test_undo_from_the_page_reverts_my_last_action(game, owner_client):
    cards = game.state["sides"]["a"]["cards"]
    services.perform_action(game, "a", {"type": "set_sequence", "order": cards})
    game.refresh_from_db()
    response = owner_client.post(
        f"/games/{game.public_id}/undo",
        {"version": game.version, "side": "a", "tap": "u1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["sequences"]["a"] is None
    assert game.events.filter(kind="undone").count() == 1
    assert game.events.count() == 3  # started, sequence, undone: nothing deleted


def test_the_log_reads_like_the_rules(game, owner_client):
    game = to_activation(game)
    log = owner_client.get(f"/games/{game.public_id}/log").content.decode()
    assert "(IV-A-2)" in log
    assert "(IV-A-1)" in log


def play_to_the_end(game: Game, seed: int, actions: int = 6000) -> Game:
    rng = random.Random(seed)
    for _ in range(actions):
        game.refresh_from_db()
        if game.state["phase"] == "finished":
            break
        side, command = next_command(game.state, rng)
        services.perform_action(
            game,
            side,
            command,
            expected_version=game.version,
            idempotency_key=f"bot-{game.version}",
        )
    game.refresh_from_db()
    return game


def test_a_full_six_turn_game_through_the_services_replays_exactly(game):
    game = play_to_the_end(game, seed=3)
    assert game.state["phase"] == "finished"
    assert game.finished_at is not None
    assert services.replayed_state(game) == game.state
    seqs = list(game.events.values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    checks = services.verify_dice(game)
    assert checks and all(check.ok for check in checks)
    summary = services.game_summary(game)
    assert set(summary["sides"]) == {"a", "b"}


def test_the_seed_is_revealed_only_at_the_end(game, owner_client):
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    assert game.dice_seed not in page
    assert game.dice_seed_hash in page
    game = play_to_the_end(game, seed=5)
    page = owner_client.get(f"/games/{game.public_id}/verify").content.decode()
    assert game.dice_seed in page
    assert "match the seed" in page


def test_the_board_takes_a_fixed_number_of_queries(game, owner_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = play_to_the_end(game, seed=9, actions=20)
    with CaptureQueriesContext(connection) as first:
        owner_client.get(f"/games/{game.public_id}/board")
    game = play_to_the_end(game, seed=9, actions=200)
    assert game.state["phase"] != "finished"
    with CaptureQueriesContext(connection) as later:
        owner_client.get(f"/games/{game.public_id}/board")
    assert len(later) == len(first)


def test_the_board_log_reads_turn_and_phase_back_from_the_state(game):
    from battles.presenters.log import log_lines

    for actions in (300, 6000):  # a game under way, then finished
        game = play_to_the_end(game, seed=11, actions=actions)
        everything = log_lines(services.rules_events(game), ["a"])
        for count in (5, 40, 120):
            window = services.latest_events(game, count)
            recent = log_lines(window, ["a"], state=game.state)
            assert recent == everything[-len(recent) :]
    assert game.state["phase"] == "finished"


def test_side_a_sees_the_share_link_and_side_b_does_not(
    game, owner_client, opponent_client
):
    share = f"/games/{game.public_id}/share"
    assert share in owner_client.get(f"/games/{game.public_id}/").content.decode()
    assert (
        share not in opponent_client.get(f"/games/{game.public_id}/").content.decode()
    )


def test_a_wound_waits_for_the_other_phone_which_may_dispute_it(
    demo_armies, owner_client, opponent_client
):
    game = guests_game("owner-key", "opponent-key", require_confirmation=True)
    # A wound side A rolled on side B's fighter (a shot into a melee can hit
    # side A's own fighter: nothing for B to confirm then).
    hit_on_b = {"kind": "wound_rolled", "side": "a", "payload__target__startswith": "b"}
    game = play_until(game, **hit_on_b)
    wound = game.events.filter(**hit_on_b).last()
    board = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Dispute" in board
    response = opponent_client.post(
        f"/games/{game.public_id}/results/{wound.action}/dispute", {"side": "b"}
    )
    assert response.status_code in (200, 302)
    log = owner_client.get(f"/games/{game.public_id}/log").content.decode()
    assert "disputed" in log


def play_until(game: Game, seed: int = 4, **event_filter) -> Game:
    """Let the bot play until an event matching ``event_filter`` is logged."""
    rng = random.Random(seed)
    for _ in range(3000):
        game.refresh_from_db()
        if game.events.filter(**event_filter).exists():
            return game
        side, command = next_command(game.state, rng)
        services.perform_action(game, side, command)
    raise AssertionError("never happened")


def test_the_tactics_winner_can_split_the_melees_otherwise(game, owner_client):
    rng = random.Random(8)
    for _ in range(3000):
        game.refresh_from_db()
        state = game.state
        if state["phase"] == "combat" and state["step"] == "forming":
            break
        side, command = next_command(state, rng)
        services.perform_action(game, side, command)
    else:
        raise AssertionError("no melee in this game")
    winner = game.state["tactics"]["winner"]
    owner_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    if winner == "b":
        phone_of("opponent-key", owner_client)
    board = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Split them otherwise" in board
    # The form as the board fills it in: whom each fighter faces.
    selected = dict(
        re.findall(
            r'name="opponent:([^"]+)">.*?<option value="([^"]+)"[^>]*selected', board
        )
    )
    fighters = {f for pair in game.state["contacts"] for f in pair}
    assert set(selected) == fighters
    choices = {f"opponent:{f}": target for f, target in selected.items()}
    response = act(owner_client, game, type="form_combats", side=winner, **choices)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["step"] == "fighting"
    combats = game.state["combat"]["combats"]
    assert {f for c in combats for f in [c["one"], *c["many"]]} == fighters
