"""URLs of the league's wing: clubs, seasons, results, standings, ratings,
tournament days and their exports, and a finished game's result counted for a
season. Included by ``battles.urls`` at the root, their names unchanged."""

from django.urls import include, path

GAME = "games/<public_id:public_id>/"  # one game's routes (as in battles.urls)

urlpatterns = []

# The club league: clubs, seasons, results, standings, ratings (issue #14).
from battles.league.views import (  # noqa: E402
    clubs,
    game_results,
    results,
    season_pages,
    waiting,
)

urlpatterns += [
    path("clubs/", clubs.club_list, name="clubs"),
    path(
        "clubs/<dbid:club_id>/",
        include(
            [
                path("", clubs.club_page, name="club"),
                path("admin/", clubs.club_admin, name="club_admin"),
                path("invite", clubs.club_invite, name="club_invite"),
                path(
                    "invitations/<dbid:invitation_id>.svg",
                    clubs.club_invite_qr,
                    name="club_invite_qr",
                ),
                path(
                    "invitations/<dbid:invitation_id>/revoke",
                    clubs.club_invite_revoke,
                    name="club_invite_revoke",
                ),
                path(
                    "members/<dbid:user_id>/<str:action>",
                    clubs.club_member_action,
                    name="club_member_action",
                ),
                path("seasons/new/", season_pages.season_new, name="season_new"),
            ]
        ),
    ),
    path("clubs/join/<str:token>", clubs.club_join, name="club_join"),
    path("league/waiting", waiting.waiting, name="league_waiting"),
    path("league/waiting/stream", waiting.waiting_stream, name="league_waiting_stream"),
    path(
        "league/<dbid:season_id>/",
        include(
            [
                path("", season_pages.season_page, name="season"),
                path(
                    "standings", season_pages.season_standings, name="season_standings"
                ),
                path("stream", waiting.season_stream, name="season_stream"),
                path("version", waiting.season_version_view, name="season_version"),
                path("results/", season_pages.season_results, name="season_results"),
                path("report/", results.result_report, name="result_report"),
                path("peoples/", season_pages.season_peoples, name="season_peoples"),
                path("schedule/", season_pages.season_schedule, name="season_schedule"),
                path(
                    "players/<dbid:user_id>/",
                    season_pages.season_player,
                    name="season_player",
                ),
                path(
                    "standings.csv",
                    season_pages.season_standings_csv,
                    name="season_standings_csv",
                ),
                path(
                    "results.csv",
                    season_pages.season_results_csv,
                    name="season_results_csv",
                ),
                path("t3.csv", season_pages.season_t3_csv, name="season_t3_csv"),
                path("print/", season_pages.season_print, name="season_print"),
                path("share/", season_pages.season_share, name="season_share"),
                path(
                    "share/renew",
                    season_pages.season_public_renew,
                    name="season_public_renew",
                ),
                path(
                    "share/public",
                    season_pages.season_public_switch,
                    name="season_public_switch",
                ),
            ]
        ),
    ),
    # Not under one include: the prefix would take "key.svg" whole as the key.
    path(
        "league/public/<public_id:key>/",
        season_pages.season_public,
        name="season_public",
    ),
    path(
        "league/public/<public_id:key>/stream",
        waiting.season_public_stream,
        name="season_public_stream",
    ),
    path(
        "league/public/<public_id:key>.svg",
        season_pages.season_public_qr,
        name="season_public_qr",
    ),
    path(
        "league/results/<dbid:result_id>/",
        include(
            [
                path("", results.result_page, name="result"),
                path("<str:verdict>", results.result_answer, name="result_answer"),
                path("admin/<str:action>", results.result_admin, name="result_admin"),
            ]
        ),
    ),
    path(
        GAME,
        include(
            [
                path("outcome", game_results.game_outcome, name="game_outcome"),
                path(
                    "outcome/confirm",
                    game_results.game_outcome_confirm,
                    name="game_outcome_confirm",
                ),
            ]
        ),
    ),
]

# --- Seasons managed and tournament days (issue #24) ------------------------
from battles.league.views import seasons, tournament  # noqa: E402

urlpatterns += [
    path(
        "league/<dbid:season_id>/",
        include(
            [
                path("manage/", seasons.season_manage, name="season_manage"),
                path(
                    "manage/players",
                    seasons.season_participants,
                    name="season_participants",
                ),
                path("manage/<str:action>", seasons.season_state, name="season_state"),
                path(
                    "tournaments/new/", tournament.tournament_new, name="tournament_new"
                ),
            ]
        ),
    ),
    path(
        "league/tournaments/<dbid:tournament_id>/",
        include(
            [
                path("", tournament.tournament_page, name="tournament"),
                path(
                    "rounds/", tournament.tournament_round_new, name="tournament_round"
                ),
                path("print/", tournament.tournament_print, name="tournament_print"),
                path("qr.svg", tournament.tournament_qr, name="tournament_qr"),
                path("tables", tournament.tournament_tables, name="tournament_tables"),
                path("stream", tournament.tournament_stream, name="tournament_stream"),
                path("mine", tournament.tournament_mine, name="tournament_mine"),
                path("repair", tournament.tournament_repair, name="tournament_repair"),
                path("finish", tournament.tournament_finish, name="tournament_finish"),
                path("clock", tournament.tournament_clock, name="tournament_clock"),
                path("drop", tournament.tournament_drop, name="tournament_drop"),
                path("late", tournament.tournament_late, name="tournament_late"),
                path("guest", tournament.tournament_guest, name="tournament_guest"),
                path("adjust", tournament.tournament_adjust, name="tournament_adjust"),
                path(
                    "tables/<dbid:pairing_id>/result",
                    tournament.table_result,
                    name="table_result",
                ),
                path(
                    "tables/<dbid:pairing_id>/forfeit",
                    tournament.table_forfeit,
                    name="table_forfeit",
                ),
                path(
                    "tables/<dbid:pairing_id>/confirm",
                    tournament.table_confirm,
                    name="table_confirm",
                ),
                path(
                    "tables/<dbid:pairing_id>/report",
                    tournament.pairing_report,
                    name="pairing_report",
                ),
                path(
                    "tables/<dbid:pairing_id>/game",
                    tournament.pairing_game,
                    name="pairing_game",
                ),
                path(
                    "tables/<dbid:pairing_id>/play",
                    tournament.table_game,
                    name="table_game",
                ),
            ]
        ),
    ),
]

# --- A tournament's T³ file (issue #29) -----------------------------------------
from battles.league.views import exports as league_exports  # noqa: E402

urlpatterns += [
    path(
        "league/tournaments/<dbid:tournament_id>/t3.csv",
        league_exports.tournament_t3_csv,
        name="tournament_t3_csv",
    ),
]
