"""Who may open or use every league endpoint: a permission matrix.

The cast: nobody signed in, an outsider (signed in, not in the club), a
member (bob, not a player of the result), the opponent of the result (carol)
and an admin (alice). A refused request changes nothing.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from battles.league import services
from battles.league.models.league import (
    GameOutcome,
    Invitation,
    LeagueResult,
    Membership,
    ResultEntry,
    Season,
)
from battles.league.views.waiting import _season_id_for_stream, _waiting_user_id
from battles.models.armies import Owner
from battles.models.games import SeatRole
from battles.services.games import perform_action
from tests.support.club import club_in_season
from tests.support.live import new_game, seat

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
TODAY = timezone.localdate()
LOGIN, OK, REDIRECT, FORBIDDEN, NOT_FOUND, EMPTY = 1, 200, 302, 403, 404, 204
ROLES = ("anonymous", "outsider", "member", "opponent", "admin")


@pytest.fixture
def world():
    world = club_in_season(
        "alice",
        ("bob", "carol", "dave"),
        ("olga",),
        club="Club",
        season="S",
        began_days_ago=5,
        ends_in_days=5,
    )
    world["result"] = services.report_result(
        world["season"],
        world["dave"],
        opponent_id=world["carol"].pk,
        played_on=TODAY,
        result="won",
        score_for=3,
        score_against=1,
    )
    world["invitation"] = services.make_invitation(world["club"], world["alice"])
    return world


def finished_game(world):
    """A game dave (side A) and carol (side B) finished (made only when needed)."""
    game = new_game(Owner(user_id=world["dave"].pk))
    seat(game, Owner(user_id=world["carol"].pk), SeatRole.SIDE_B)
    perform_action(game, "b", {"type": "concede"})
    return game


def client_as(world, role) -> Client:
    client = Client()
    user = {
        "outsider": "olga",
        "member": "bob",
        "opponent": "carol",
        "admin": "alice",
    }.get(role)
    if user:
        client.force_login(world[user])
    return client


def state():
    return (
        LeagueResult.objects.count(),
        ResultEntry.objects.count(),
        list(LeagueResult.objects.values_list("status", "outcome", "score_a")),
        sorted(Membership.objects.values_list("user_id", "role")),
        list(Invitation.objects.values_list("revoked", "used")),
        list(Season.objects.values_list("public_key", "public")),
    )


def M(**by_role):  # noqa: N802 - reads as a table
    """Expected status per role; unnamed roles take ``rest``."""
    rest = by_role.pop("rest", None)
    return {role: by_role.get(role, rest) for role in ROLES}


MEMBERS_PAGE = M(anonymous=LOGIN, outsider=FORBIDDEN, rest=OK)
ADMIN_PAGE = M(
    anonymous=LOGIN, outsider=FORBIDDEN, member=FORBIDDEN, opponent=FORBIDDEN, admin=OK
)
ADMIN_POST = M(
    anonymous=LOGIN,
    outsider=FORBIDDEN,
    member=FORBIDDEN,
    opponent=FORBIDDEN,
    admin=REDIRECT,
)
PUBLIC = M(rest=OK)

ENDPOINTS = [
    # (name, method, url args from the world, data, expected, changes when allowed)
    ("clubs", "get", lambda w: [], None, M(anonymous=LOGIN, rest=OK), False),
    # Not listed to anonymous visitors by sequential ids.
    ("club", "get", lambda w: [w["club"].pk], None, M(anonymous=LOGIN, rest=OK), False),
    ("club_admin", "get", lambda w: [w["club"].pk], None, ADMIN_PAGE, False),
    ("club_invite", "post", lambda w: [w["club"].pk], {}, ADMIN_POST, True),
    (
        "club_invite_revoke",
        "post",
        lambda w: [w["club"].pk, w["invitation"].row.pk],
        {},
        ADMIN_POST,
        True,
    ),
    (
        "club_member_action",
        "post",
        lambda w: [w["club"].pk, w["bob"].pk, "promote"],
        {},
        ADMIN_POST,
        True,
    ),
    (
        "club_member_action",
        "post",
        lambda w: [w["club"].pk, w["dave"].pk, "remove"],
        {"confirmed": "yes"},
        ADMIN_POST,
        True,
    ),
    ("season_new", "get", lambda w: [w["club"].pk], None, ADMIN_PAGE, False),
    (
        "season_new",
        "post",
        lambda w: [w["club"].pk],
        {
            "name": "S2",
            "starts": "2026-01-01",
            "ends": "2026-12-31",
            "points_limit": 400,
            "scale": "win_draw_loss",
            "win": 3,
            "draw": 1,
            "loss": 0,
            "major_win": 5,
            "minor_win": 4,
            "minor_loss": 1,
            "major_loss": 0,
            "margin": 100,
            "pairing": "anyone",
            "tiebreaker_1": "head_to_head",
        },
        ADMIN_POST,
        True,
    ),
    ("season", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("season_standings", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    (
        "season_version",
        "get",
        lambda w: [w["season"].pk],
        None,
        M(anonymous=FORBIDDEN, outsider=FORBIDDEN, rest=OK),
        False,
    ),
    ("season_results", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("result_report", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("season_peoples", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("season_schedule", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    (
        "season_player",
        "get",
        lambda w: [w["season"].pk, w["carol"].pk],
        None,
        MEMBERS_PAGE,
        False,
    ),
    (
        "season_standings_csv",
        "get",
        lambda w: [w["season"].pk],
        None,
        MEMBERS_PAGE,
        False,
    ),
    (
        "season_results_csv",
        "get",
        lambda w: [w["season"].pk],
        None,
        MEMBERS_PAGE,
        False,
    ),
    ("season_t3_csv", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("season_print", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("season_share", "get", lambda w: [w["season"].pk], None, MEMBERS_PAGE, False),
    ("season_public_renew", "post", lambda w: [w["season"].pk], {}, ADMIN_POST, True),
    ("season_public_switch", "post", lambda w: [w["season"].pk], {}, ADMIN_POST, True),
    ("season_public", "get", lambda w: [w["season"].public_key], None, PUBLIC, False),
    (
        "season_public_qr",
        "get",
        lambda w: [w["season"].public_key],
        None,
        PUBLIC,
        False,
    ),
    ("result", "get", lambda w: [w["result"].pk], None, MEMBERS_PAGE, False),
    (
        "result_answer",
        "post",
        lambda w: [w["result"].pk, "confirm"],
        {},
        # A member who is not the opponent is told no (a message), nothing changes.
        M(anonymous=LOGIN, outsider=FORBIDDEN, rest=REDIRECT),
        "opponent",
    ),
    (
        "result_answer",
        "post",
        lambda w: [w["result"].pk, "dispute"],
        {"reason": "It was a draw", "outcome": "draw", "score_a": 1, "score_b": 1},
        M(anonymous=LOGIN, outsider=FORBIDDEN, rest=REDIRECT),
        "opponent",
    ),
    (
        "result_admin",
        "post",
        lambda w: [w["result"].pk, "void"],
        {"reason": "wrong army"},
        ADMIN_POST,
        True,
    ),
    (
        "result_admin",
        "post",
        lambda w: [w["result"].pk, "confirm"],
        {"reason": "seen it"},
        ADMIN_POST,
        True,
    ),
    (
        "result_admin",
        "post",
        lambda w: [w["result"].pk, "correct"],
        {
            "reason": "typo",
            "played_on": TODAY.isoformat(),
            "outcome": "draw",
            "score_a": 1,
            "score_b": 1,
        },
        ADMIN_POST,
        True,
    ),
    (
        "league_waiting",
        "get",
        lambda w: [],
        None,
        M(anonymous=EMPTY, rest=OK),
        False,
    ),
    (
        "game_outcome",
        "get",
        lambda w: [w["game"].public_id],
        None,
        # The game's players only (carol holds side B); others learn nothing.
        M(opponent=OK, rest=NOT_FOUND),
        False,
    ),
    (
        "game_outcome",
        "post",
        lambda w: [w["game"].public_id],
        {"outcome": "a", "score_a": 1, "score_b": 0},
        M(opponent=OK, rest=NOT_FOUND),
        "opponent",
    ),
    (
        "game_outcome_confirm",
        "post",
        lambda w: [w["game"].public_id],
        {},
        M(opponent=OK, rest=NOT_FOUND),
        False,  # nothing proposed yet: refused in words, nothing changes
    ),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    "name,method,args,data,expected,changes",
    ENDPOINTS,
    ids=[f"{e[1]}-{e[0]}-{i}" for i, e in enumerate(ENDPOINTS)],
)
def test_every_league_endpoint_answers_each_role_as_the_matrix_says(
    world, role, name, method, args, data, expected, changes
):
    if name.startswith("game_outcome"):
        world["game"] = finished_game(world)
    client = client_as(world, role)
    url = reverse(name, args=args(world))
    before = state()
    outcomes_before = list(GameOutcome.objects.values_list("outcome", "agreed_a"))
    if method == "post":
        response = client.post(url, data)
    else:
        response = client.get(url)
    wanted = expected[role]
    if wanted == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == wanted, response.content[:300]
    allowed_to_change = changes is True and wanted in (OK, REDIRECT) or changes == role
    if not allowed_to_change:
        assert state() == before
        outcomes = list(GameOutcome.objects.values_list("outcome", "agreed_a"))
        assert outcomes == outcomes_before


def test_the_live_streams_are_for_members_and_the_signed_in_only(world):
    factory = RequestFactory()
    request = factory.get("/")
    request.user = world["olga"]
    with pytest.raises(PermissionDenied):
        _season_id_for_stream(request, world["season"].pk, None)
    request.user = world["bob"]
    assert (
        _season_id_for_stream(request, world["season"].pk, None) == world["season"].pk
    )
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    assert (
        _season_id_for_stream(request, 0, world["season"].public_key)
        == world["season"].pk
    )
    with pytest.raises(PermissionDenied):
        _waiting_user_id(request)
