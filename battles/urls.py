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
                # Undo, the dice switch and time called are taps like the
                # rest; these
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
                        ("time-call", "time_call", "game_time_call"),
                        (
                            "time-call/answer",
                            "answer_time_call",
                            "game_time_call_answer",
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

# The league's wing (issues #14, #24, #29): battles/league/urls.py.
urlpatterns += [path("", include("battles.league.urls"))]

# Django's own password reset by e-mail, when e-mail is configured (issue #14).
from django.conf import settings as _settings  # noqa: E402

if _settings.PASSWORD_RESET_BY_EMAIL:
    from battles import password_reset_urls  # noqa: E402

    urlpatterns += password_reset_urls.urlpatterns

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
