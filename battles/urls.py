"""URLs of the battles app. Each area adds its own block below; the routes of
one army, game, club, season or result sit under its prefix (``include``),
their names unchanged."""

from django.urls import include, path, register_converter

from battles.converters import DatabaseIdConverter, PublicIdConverter
from battles.views import core

register_converter(PublicIdConverter, "public_id")
register_converter(DatabaseIdConverter, "dbid")

urlpatterns = [
    path("", core.home, name="home"),
    path("manifest.webmanifest", core.manifest, name="manifest"),
    path("healthz", core.healthz, name="healthz"),
    path("favicon.ico", core.favicon),
]

# --- Armies and reference cards (issue #4) ---------------------------------
from battles.views import armies  # noqa: E402

urlpatterns += [
    path("armies/", armies.army_list, name="armies"),
    path("armies/new/", armies.army_create, name="army-create"),
    path("armies/import/", armies.army_import, name="army-import"),
    path("armies/cards/new/", armies.card_create, name="card-create"),
    path("armies/catalogues/", armies.catalogue_upload, name="catalogue-upload"),
    path(
        "armies/<int:army_id>/",
        include(
            [
                path("", armies.army_detail, name="army"),
                path("library/", armies.army_library, name="army-library"),
                path("sheet/", armies.army_sheet, name="army-sheet"),
                path("export.json", armies.army_export, name="army-export"),
                path("cards/", armies.army_add_card, name="army-add-card"),
                path(
                    "cards/<int:army_card_id>/count/",
                    armies.army_change_count,
                    name="army-card-count",
                ),
                path(
                    "cards/<int:army_card_id>/known/",
                    armies.army_card_known,
                    name="army-card-known",
                ),
                path(
                    "cards/<int:army_card_id>/remove/",
                    armies.army_remove_card,
                    name="army-card-remove",
                ),
                path("duplicate/", armies.army_duplicate, name="army-duplicate"),
                path("delete/", armies.army_delete, name="army-delete"),
                path("restore/", armies.army_restore, name="army-restore"),
            ]
        ),
    ),
]

# The hex combat sheet ("Fiche Combat", issue #7).
from battles.views import hexcombat  # noqa: E402

urlpatterns += [path("hex/", hexcombat.hexcombat, name="hexcombat")]

# Games (IV: the whole turn) -------------------------------------------------
from battles.views import games  # noqa: E402

GAME = "games/<public_id:public_id>/"  # one game's routes, whichever area serves them

urlpatterns += [
    path("games/", games.games_list, name="games"),
    path("games/new/", games.game_new, name="game_new"),
    path(
        GAME,
        include(
            [
                path("", games.game_page, name="game"),
                path("board", games.game_board, name="game_board"),
                path("act", games.game_act, name="game_act"),
                path("tools/<slug:tool>", games.game_tool, name="game_tool"),
                # Undo and the dice switch are taps like the rest; these
                # addresses name the command for forms that post none.
                *(
                    path(route, games.game_act, {"tap_type": kind}, name=name)
                    for route, kind, name in (
                        ("undo", "undo", "game_undo"),
                        ("undo/answer", "answer_undo", "game_undo_answer"),
                        ("dice-mode", "dice_mode", "game_dice_mode"),
                        (
                            "dice-mode/answer",
                            "answer_dice_mode",
                            "game_dice_mode_answer",
                        ),
                    )
                ),
                path("sequence", games.game_sequence_move, name="game_sequence_move"),
                path("view-as", games.game_view_as, name="game_view_as"),
                path("log", games.game_log, name="game_log"),
                path("log.json", games.game_log_json, name="game_log_json"),
                path("verify", games.game_verify, name="game_verify"),
            ]
        ),
    ),
]

# Shared live sessions: share links, joining, live updates, agreement (issue #6).
from battles.views import live, sharing  # noqa: E402

urlpatterns += [
    path(
        GAME,
        include(
            [
                path("share", sharing.game_share, name="game_share"),
                path(
                    "share/<str:role>.svg", sharing.game_share_qr, name="game_share_qr"
                ),
                path("share/renew", sharing.game_share_renew, name="game_share_renew"),
                path(
                    "share/revoke", sharing.game_share_revoke, name="game_share_revoke"
                ),
                path("stream", live.game_stream, name="game_stream"),
                path("version", live.game_version, name="game_version"),
                path(
                    "results/<int:action>/confirm",
                    sharing.game_confirm,
                    name="game_confirm",
                ),
                path(
                    "results/<int:action>/dispute",
                    sharing.game_dispute,
                    name="game_dispute",
                ),
            ]
        ),
    ),
    path("join/<str:token>", sharing.join, name="join"),
]

# Accounts, optional for a casual game (issue #6).
from battles.views import account, accounts  # noqa: E402

urlpatterns += [
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.signin, name="login"),
    path("accounts/logout/", accounts.signout, name="logout"),
    path("accounts/", account.account_page, name="account"),
    path("accounts/recover/", account.recover, name="recover"),
    path("accounts/recovery-codes/", account.recovery_codes, name="recovery_codes"),
    path(
        "accounts/recovery-codes.txt",
        account.recovery_codes_text,
        name="recovery_codes_text",
    ),
]

# The club league: clubs, seasons, results, standings, ratings (issue #14).
from battles.views import league  # noqa: E402

urlpatterns += [
    path("clubs/", league.club_list, name="clubs"),
    path(
        "clubs/<dbid:club_id>/",
        include(
            [
                path("", league.club_page, name="club"),
                path("admin/", league.club_admin, name="club_admin"),
                path("invite", league.club_invite, name="club_invite"),
                path(
                    "invitations/<dbid:invitation_id>.svg",
                    league.club_invite_qr,
                    name="club_invite_qr",
                ),
                path(
                    "invitations/<dbid:invitation_id>/revoke",
                    league.club_invite_revoke,
                    name="club_invite_revoke",
                ),
                path(
                    "members/<dbid:user_id>/<str:action>",
                    league.club_member_action,
                    name="club_member_action",
                ),
                path("seasons/new/", league.season_new, name="season_new"),
            ]
        ),
    ),
    path("clubs/join/<str:token>", league.club_join, name="club_join"),
    path("league/waiting", league.waiting, name="league_waiting"),
    path("league/waiting/stream", league.waiting_stream, name="league_waiting_stream"),
    path(
        "league/<dbid:season_id>/",
        include(
            [
                path("", league.season_page, name="season"),
                path("standings", league.season_standings, name="season_standings"),
                path("stream", league.season_stream, name="season_stream"),
                path("version", league.season_version_view, name="season_version"),
                path("results/", league.season_results, name="season_results"),
                path("report/", league.result_report, name="result_report"),
                path("peoples/", league.season_peoples, name="season_peoples"),
                path("schedule/", league.season_schedule, name="season_schedule"),
                path(
                    "players/<dbid:user_id>/",
                    league.season_player,
                    name="season_player",
                ),
                path(
                    "standings.csv",
                    league.season_standings_csv,
                    name="season_standings_csv",
                ),
                path(
                    "results.csv", league.season_results_csv, name="season_results_csv"
                ),
                path("t3.csv", league.season_t3_csv, name="season_t3_csv"),
                path("print/", league.season_print, name="season_print"),
                path("share/", league.season_share, name="season_share"),
                path(
                    "share/renew",
                    league.season_public_renew,
                    name="season_public_renew",
                ),
                path(
                    "share/public",
                    league.season_public_switch,
                    name="season_public_switch",
                ),
            ]
        ),
    ),
    # Not under one include: the prefix would take "key.svg" whole as the key.
    path("league/public/<public_id:key>/", league.season_public, name="season_public"),
    path(
        "league/public/<public_id:key>/stream",
        league.season_public_stream,
        name="season_public_stream",
    ),
    path(
        "league/public/<public_id:key>.svg",
        league.season_public_qr,
        name="season_public_qr",
    ),
    path(
        "league/results/<dbid:result_id>/",
        include(
            [
                path("", league.result_page, name="result"),
                path("<str:verdict>", league.result_answer, name="result_answer"),
                path("admin/<str:action>", league.result_admin, name="result_admin"),
            ]
        ),
    ),
    path(
        GAME,
        include(
            [
                path("outcome", league.game_outcome, name="game_outcome"),
                path(
                    "outcome/confirm",
                    league.game_outcome_confirm,
                    name="game_outcome_confirm",
                ),
            ]
        ),
    ),
]

# Django's own password reset by e-mail, when e-mail is configured (issue #14).
from django.conf import settings as _settings  # noqa: E402

if _settings.PASSWORD_RESET_BY_EMAIL:
    from battles import password_reset_urls  # noqa: E402

    urlpatterns += password_reset_urls.urlpatterns

# --- Seasons managed and tournament days (issue #24) ------------------------
from battles.views import seasons, tournament  # noqa: E402

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
            ]
        ),
    ),
]

# --- A tournament's T³ file (issue #29) -----------------------------------------
from battles.views import league_exports  # noqa: E402

urlpatterns += [
    path(
        "league/tournaments/<dbid:tournament_id>/t3.csv",
        league_exports.tournament_t3_csv,
        name="tournament_t3_csv",
    ),
]

# --- Spells and miracles typed and imported in the app (issue #32) --------------
from battles.views import mystic  # noqa: E402

urlpatterns += [
    path("armies/mystic/", mystic.mystic_list, name="mystic"),
    path("armies/mystic/import/", mystic.mystic_import, name="mystic-import"),
    path("armies/mystic/<str:kind>/new/", mystic.mystic_edit, name="mystic-new"),
    path("armies/mystic/<str:kind>/<int:pk>/", mystic.mystic_edit, name="mystic-edit"),
    path(
        "armies/mystic/<str:kind>/<int:pk>/delete/",
        mystic.mystic_delete,
        name="mystic-delete",
    ),
]
