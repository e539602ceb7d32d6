"""Issue #10 through the services and the views: the rules the game enforces,
and an undo that cannot buy new dice.

Demo armies: side A (Griffons) a1 Magistrat, a2 three Guerriers...; side B
(Wolfen) b1 three Repentis, ...
"""

from __future__ import annotations

import pytest

from battles.models import GameEvent
from battles.models.armies import Owner
from battles.services import games as services
from rules.errors import IllegalAction
from rules.game import legal_actions, replay, waiting_for
from tests.support.game_steps import act, to_activation, to_first_choice

pytestmark = pytest.mark.django_db


def perform(game, side, command, **kwargs):
    game.refresh_from_db()
    result = services.perform_action(game, side, command, **kwargs)
    game.refresh_from_db()
    return result


def refused_by_the_view(client, game, match, **data):
    game.refresh_from_db()
    version, state = game.version, game.state
    response = act(client, game, **data)
    assert response.status_code == 200
    assert match in response.content.decode()
    game.refresh_from_db()
    assert game.version == version and game.state == state


def a_shot_rolled(game):
    """Side A speaks first; its Magistrat (pistol) shoots b1.1; the test is rolled."""
    game = to_activation(game)
    perform(game, "a", {"type": "draw", "action": "draw"})
    perform(
        game,
        "a",
        {"type": "shoot", "fighter": "a1.1", "target": "b1.1", "distance_cm": 5},
    )
    result = perform(game, "a", {"type": "roll"})
    return game, result


def rolled_faces(game, result):
    return [e.dice for e in result.events if e.dice][0]


# --- undo ------------------------------------------------------------------------


def test_two_phones_undoing_a_roll_asks_the_other_side_and_the_same_faces_come_back(
    game,
):
    game, result = a_shot_rolled(game)
    faces = rolled_faces(game, result)
    before_roll = game.events.get(seq=result.events[0].action).state_before
    asked = services.undo_last_action(game, "a")
    assert asked.undo_requested
    game.refresh_from_db()
    assert game.events.last().kind == "undo_requested"
    assert services.pending_undo_request(game)["answerer"] == "b"
    with pytest.raises(services.GameError):  # only the other side answers
        services.answer_undo(game, "a", agree=True)
    assert services.pending_undo_request(game)["answerer"] == "b"
    services.answer_undo(game, "b", agree=True)
    game.refresh_from_db()
    # The game is back where it was; only its roll numbers remember the roll
    # taken back (rules.game.roll_numbers: set aside for the same roll).
    assert without_roll_numbers(game.state) == without_roll_numbers(before_roll)
    assert game.state["taken_back"] == [
        {"roll": before_roll["rolls"], "key": game.state["taken_back"][0]["key"]}
    ]
    assert game.state == replay(services.rules_events(game))
    again = perform(game, "a", {"type": "roll"})
    assert rolled_faces(game, again) == faces
    game.refresh_from_db()
    assert all(check.ok for check in services.verify_dice(game))


def test_the_other_side_may_refuse_the_undo_and_the_roll_stands(game):
    game, result = a_shot_rolled(game)
    state = game.state
    services.undo_last_action(game, "a")
    services.answer_undo(game, "b", agree=False)
    game.refresh_from_db()
    assert game.state == state
    assert game.events.last().kind == "undo_refused"
    assert services.pending_undo_request(game) is None
    with pytest.raises(services.StaleAction):
        services.answer_undo(game, "b", agree=True)


def test_faces_taken_back_never_reach_a_shot_at_another_target(game):
    """Issue 30: a face shown is spent. The shot at b1.1 made again gets its
    faces again; a shot at another target is another roll, with a fresh
    number (the faces the players saw say nothing of it)."""
    game, result = a_shot_rolled(game)
    faces = rolled_faces(game, result)
    shown = result.events[-1].payload["roll"]
    services.undo_last_action(game, "a")
    services.answer_undo(game, "b", agree=True)
    services.undo_last_action(game, "a")  # the shot itself rolled nothing
    game.refresh_from_db()
    assert game.state["pending"] is None
    perform(
        game,
        "a",
        {"type": "shoot", "fighter": "a1.1", "target": "b1.2", "distance_cm": 5},
    )
    other = perform(game, "a", {"type": "roll"})
    assert drawn_number(other) == shown + 1
    services.undo_last_action(game, "a")
    services.answer_undo(game, "b", agree=True)
    services.undo_last_action(game, "a")
    game.refresh_from_db()
    perform(
        game,
        "a",
        {"type": "shoot", "fighter": "a1.1", "target": "b1.1", "distance_cm": 5},
    )
    again = perform(game, "a", {"type": "roll"})
    assert drawn_number(again) == shown
    assert rolled_faces(game, again) == faces
    game.refresh_from_db()
    assert game.state == replay(services.rules_events(game))
    assert all(check.ok for check in services.verify_dice(game))


def drawn_number(result) -> int:
    return next(e.payload["roll"] for e in result.events if e.kind == "dice_drawn")


def without_roll_numbers(state):
    return {k: v for k, v in state.items() if k not in ("rolls", "taken_back")}


def test_one_phone_a_confirmation_is_enough(demo_armies):
    army_a, army_b = demo_armies
    game = services.create_game(
        owner=Owner(guest_key="solo"),
        army_a=army_a,
        army_b=army_b,
        mode="one_phone",
    )
    game, result = a_shot_rolled(game)
    faces = rolled_faces(game, result)
    with pytest.raises(services.ConfirmUndo):
        services.undo_last_action(game, "a")
    services.undo_last_action(game, "a", confirmed=True)
    game.refresh_from_db()
    assert game.state["pending"]["roll"] is None
    again = perform(game, "a", {"type": "roll"})
    assert rolled_faces(game, again) == faces


def test_undo_takes_back_only_my_own_last_action(game):
    cards = game.state["sides"]["a"]["cards"]
    perform(game, "a", {"type": "set_sequence", "order": cards})
    with pytest.raises(IllegalAction, match="opponent"):
        services.undo_last_action(game, "b")
    services.undo_last_action(game, "a")  # no dice: no one is asked
    game.refresh_from_db()
    assert game.state["sequences"]["a"] is None


def test_undo_restores_the_snapshot_without_replaying(game, monkeypatch):
    game, _result = a_shot_rolled(game)
    monkeypatch.setattr(
        services, "replay", lambda events: pytest.fail("the log was replayed")
    )
    services.undo_last_action(game, "a")
    services.answer_undo(game, "b", agree=True)


def test_undo_through_the_views_asks_the_other_phone(
    game, owner_client, opponent_client
):
    game, _result = a_shot_rolled(game)
    state = game.state
    response = owner_client.post(
        f"/games/{game.public_id}/undo",
        {"version": game.version, "side": "a", "tap": "u1"},
        HTTP_HX_REQUEST="true",
    )
    assert "must agree" in response.content.decode()
    game.refresh_from_db()
    assert game.state == state
    board = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Agree to the undo" in board
    assert "asks to undo its last action, which rolled dice" in board  # the log
    # The asking phone cannot answer its own request.
    mine = owner_client.get(f"/games/{game.public_id}/board").content.decode()
    assert "Agree to the undo" not in mine
    response = owner_client.post(
        f"/games/{game.public_id}/undo/answer",
        {"version": game.version, "side": "a", "agree": "1", "tap": "u2"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403 or "Only the other side" in (
        response.content.decode()
    )
    response = opponent_client.post(
        f"/games/{game.public_id}/undo/answer",
        {"version": game.version, "side": "b", "agree": "1", "tap": "u3"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["pending"]["roll"] is None
    assert "agreement" in response.content.decode()


def test_a_stale_undo_answer_says_the_game_moved_on(game, opponent_client):
    response = opponent_client.post(
        f"/games/{game.public_id}/undo/answer",
        {"version": game.version, "side": "b", "agree": "1", "tap": "u9"},
        HTTP_HX_REQUEST="true",
    )
    assert "No undo is waiting" in response.content.decode()
    assert not GameEvent.objects.filter(game=game, kind="undone").exists()


# --- the rules, through the views ------------------------------------------------


def test_IV_A_2_the_tactics_fighter_cannot_be_chosen_again_once_rolled(
    game, opponent_client
):
    """IV-A-2: "Le vainqueur de ce jet choisira quel joueur commence à parler"."""
    game = to_first_choice(game)  # rolled; the winner has not spoken yet
    refused_by_the_view(
        opponent_client,
        game,
        "IV-A-2",
        side="b",
        type="choose_tactics_fighter",
        fighter="b1.1",
    )


def magistrat_in_contact(game):
    game = to_activation(game)
    perform(
        game,
        "a",
        {"type": "set_contact", "one": "a1.1", "two": "b1.1", "contact": True},
    )
    perform(game, "a", {"type": "draw", "action": "draw"})
    assert game.state["active"]["fighters"] == ["a1.1"]
    return game


@pytest.mark.parametrize(
    ("action", "message"),
    [
        # COURIR: "Un combattant ne peut effectuer une course que s'il est libre
        # de tout adversaire au moment de son activation."
        pytest.param("run", "COURIR", id="COURIR"),
        # MARCHER: "il doit parvenir à se désengager avant de pouvoir effectuer
        # une marche."
        pytest.param("walk", "disengage", id="MARCHER"),
    ],
)
def test_a_fighter_in_contact_can_neither_run_nor_walk(
    game, owner_client, action, message
):
    game = magistrat_in_contact(game)
    refused_by_the_view(
        owner_client,
        game,
        message,
        side="a",
        type="declare",
        fighter="a1.1",
        action=action,
    )


def test_a_failed_disengagement_keeps_every_combat_die_in_defence(game, owner_client):
    """Désengagement: "S'il échoue, tous ses dés de combat sont automatiquement
    placés en défense lors de la phase de combat du tour en cours"."""
    game = magistrat_in_contact(game)
    perform(game, "a", {"type": "disengage", "fighter": "a1.1"})
    game.dice_mode = "entered"  # real dice, to type the failing 1
    game.save(update_fields=["dice_mode"])
    perform(game, "a", {"type": "roll"}, faces=[1])
    if game.state["pending"]:  # a six is impossible with a 1: nothing pending
        pytest.fail(game.state["pending"])
    assert "a1.1" in game.state["defence_only"]
    refused_by_the_view(
        owner_client,
        game,
        "failed to disengage",
        side="a",
        type="declare",
        fighter="a1.1",
        action="engagement",
        targets="b1.2",
    )


def test_IV_B_2_a_walk_then_an_exclusive_action_is_refused(game, opponent_client):
    """IV-B-2: "les combattants effectuant des actions cumulatives sont joués les
    uns après les autres, après ceux ayant effectué une action exclusive." """
    game = to_activation(game)
    perform(game, "a", {"type": "draw", "action": "draw"})
    perform(game, "a", {"type": "end_activation"})
    perform(game, "b", {"type": "draw", "action": "draw"})
    assert game.state["active"]["fighters"][:2] == ["b1.1", "b1.2"]
    perform(game, "b", {"type": "declare", "fighter": "b1.1", "action": "walk"})
    refused_by_the_view(
        opponent_client,
        game,
        "IV-B-2",
        side="b",
        type="declare",
        fighter="b1.2",
        action="charge",
        targets="a1.1",
    )


def test_IV_B_2_the_panel_says_before_a_walk_that_it_ends_exclusive_actions(
    game, opponent_client
):
    """The player is told before the first cumulative action of a card (not
    by a refusal after it) that it ends the other fighters' charge,
    engagement or run; once one walked, the line and those choices are gone."""
    import re

    game = to_activation(game)
    perform(game, "a", {"type": "draw", "action": "draw"})
    perform(game, "a", {"type": "end_activation"})
    perform(game, "b", {"type": "draw", "action": "draw"})

    def board() -> str:
        return opponent_client.get(f"/games/{game.public_id}/").content.decode()

    page = board()
    warning = re.search(r'<p class="message exclusives-at-stake">(.*?)</p>', page)
    assert warning is not None
    assert "ends the other fighters' exclusive actions" in warning.group(1)
    perform(game, "b", {"type": "declare", "fighter": "b1.1", "action": "walk"})
    page = board()
    assert "exclusives-at-stake" not in page
    offered = re.search(r'<select id="move-b1.2" name="action">(.*?)</select>', page)
    assert offered is not None
    assert 'value="walk"' in offered.group(1)
    assert 'value="charge"' not in offered.group(1)


def test_mystic_actions_only_for_magicians_and_the_faithful(game, opponent_client):
    """IV-B-2: "Les actions cumulatives sont : la Marche, le Tir, les Actions
    mystiques (cf. Ch.10 et 11)"."""
    game = to_activation(game)
    perform(game, "a", {"type": "draw", "action": "draw"})
    perform(game, "a", {"type": "end_activation"})
    perform(game, "b", {"type": "draw", "action": "draw"})
    refused_by_the_view(
        opponent_client,
        game,
        "magician",
        side="b",
        type="declare",
        fighter="b1.1",
        action="mystic",
    )


def to_the_combat(game):
    game = magistrat_in_contact(game)
    perform(game, "a", {"type": "end_activation"})
    while game.state["phase"] == "activation":
        side = sorted(waiting_for(game.state))[0]
        kind = "end_activation" if game.state["active"] else "draw"
        command = (
            {"type": kind} if game.state["active"] else {"type": kind, "action": "draw"}
        )
        perform(game, side, command)
    winner = game.state["tactics"]["winner"]
    perform(game, winner, {"type": "form_combats", "combats": "suggested"})
    if game.state["combat"]["current"] is None:
        perform(game, winner, {"type": "choose_combat", "combat": 0})
    return game


def test_VII_C_nobody_ends_a_combat_nor_names_the_other_side_s_fighter(
    game, owner_client, opponent_client
):
    """VII-C-3 (melee-sources.md, S8 [read]): "A fighter who still has an
    attack die must attack": there is no "end this combat"; VII-C-2: each side
    names one of its own fighters for the Initiative."""
    game = to_the_combat(game)
    # One fighter a side in the combat: each named without a tap (VII-C-2).
    named = game.state["combat"]["combats"][0]["initiative_fighters"]
    assert named == {"a": "a1.1", "b": "b1.1"}
    assert game.state["pending"]["purpose"] == "initiative"
    refused_by_the_view(
        owner_client, game, "Unknown action", side="a", type="end_combat"
    )
    refused_by_the_view(
        owner_client, game, "message-error", side="a", type="initiative", fighter="b1.1"
    )
    for side in "ab":
        assert [e["type"] for e in legal_actions(game.state, side)].count(
            "initiative"
        ) == 0


def test_a_refusal_comes_in_the_players_language(game):
    """COURIR, refused on a French phone: the engine's message, in French."""
    from django.test import Client

    from tests.support.cast import phone_of

    game = magistrat_in_contact(game)
    french = phone_of("owner-key", Client(HTTP_ACCEPT_LANGUAGE="fr"))
    refused_by_the_view(
        french,
        game,
        "ne peut courir que s&#x27;il est libre de tout adversaire",
        side="a",
        type="declare",
        fighter="a1.1",
        action="run",
    )


def test_only_the_side_whose_action_is_last_is_offered_an_undo(
    game, owner_client, opponent_client
):
    """Undo takes back the side's own last action only: the other phone is
    not offered a button that could only be refused."""
    cards = game.state["sides"]["a"]["cards"]
    perform(game, "a", {"type": "set_sequence", "order": cards})
    url = f"/games/{game.public_id}/board"
    assert "Undo my last action" in owner_client.get(url).content.decode()
    assert "Undo my last action" not in opponent_client.get(url).content.decode()
