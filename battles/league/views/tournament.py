"""A tournament day's pages: thin views over ``battles.league.services.tournament``.

Members of the club see the rounds, their table and the standings after
each round, and print the notice board; the players of a table report its
result or count their finished in-app game; an admin creates the day and its
rounds.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.identity import requester
from battles.league import services as league_services
from battles.league.forms.tournament import (
    SWISS_LABELS,
    SWISS_SHORT,
    AdjustmentForm,
    EntrantForm,
    ForfeitForm,
    GuestForm,
    LateEntryForm,
    PairingReportForm,
    TableGameForm,
    TableResultForm,
    TournamentForm,
)
from battles.league.live.tournament import tournament_events, tournament_version
from battles.league.models.tournament import Tournament, TournamentPairing
from battles.league.services import table_games
from battles.league.services import tournament as services
from battles.league.services.errors import LeagueError
from battles.league.views.access import qr, season_for_member
from battles.live.stream import seen_version
from battles.validation import add_field_error


def _tournament_for_member(request, tournament_id: int):
    tournament = get_object_or_404(
        Tournament.objects.select_related("season__club"), pk=tournament_id
    )
    member = league_services.membership(tournament.season.club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return tournament, member


def _tables_context(request, tournament, shown_round: int | None = None) -> dict:
    """The current round's tables, and this person's table in it."""
    # The version first: a change committed while the page is read makes it
    # older than what it shows, so the stream has the phone fetch it again
    # (read after, it could stamp stale tables with the new version).
    version = tournament_version(tournament.pk)
    view = services.tournament_view(tournament)
    mine = None
    if view.current is not None:
        mine = next((p for p in view.current.pairings if p.has(request.user.pk)), None)
    current = view.current.number if view.current else 0
    member = league_services.membership(tournament.season.club, request.user)
    return {
        "tournament": tournament,
        "view": view,
        "current": view.current,
        "mine": mine,
        "shown_round": current if shown_round is None else shown_round,
        "version": version,
        "columns": _columns(view),
        "organiser": member is not None and member.is_admin,
    }


def _columns(view) -> list[tuple[str, str]]:
    """The standings' deciding columns, in the day's order: (short, full)."""
    return [(SWISS_SHORT[name], SWISS_LABELS[name]) for name in view.tiebreakers]


def _page(request, tournament, member, *, report_form=None, report_table=None):
    tables = _tables_context(request, tournament)
    mine = tables["mine"]
    view = tables["view"]
    organiser_forms = {}
    if member.is_admin and not view.final:
        in_day = {e.user_id for e in view.players}
        candidates = [
            u
            for u in league_services.club_members(tournament.season)
            if u.pk not in in_day
        ]
        organiser_forms = {
            # Each form its own ids (one page, three "player" fields).
            "drop_form": EntrantForm(entrants=view.active_players, auto_id="drop_%s"),
            "adjust_form": AdjustmentForm(entrants=view.players, auto_id="adjust_%s"),
            "guest_form": GuestForm(auto_id="guest_%s"),
            "late_form": (
                LateEntryForm(candidates=candidates, auto_id="late_%s")
                if candidates
                else None
            ),
        }
    context = {
        **tables,
        **organiser_forms,
        "season": tournament.season,
        "member": member,
        "report_form": report_form or PairingReportForm(),
        "report_table": report_table,
        "games_to_count": services.games_to_count(mine) if mine else [],
    }
    return render(request, "battles/league/tournament.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, season_id: int) -> HttpResponse:
    season, member = season_for_member(request, season_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    form = TournamentForm(
        request.POST or None,
        members=league_services.club_members(season),
        initial={"played_on": timezone.localdate(), "seed": services.new_seed()},
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(
                season,
                request.user,
                name=form.cleaned_data["name"],
                played_on=form.cleaned_data["played_on"],
                place=form.cleaned_data["place"],
                players=form.chosen_players(),
                tap_key=request.POST.get("tap_key", ""),
                **form.rules(),
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            return redirect("tournament", tournament_id=tournament.pk)
    context = {"season": season, "form": form}
    return render(request, "battles/league/tournament_new.html", context)


@login_required
@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, member = _tournament_for_member(request, tournament_id)
    return _page(request, tournament, member)


@login_required
@require_POST
def tournament_round_new(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _member = _tournament_for_member(request, tournament_id)
    try:
        new_round = services.create_round(
            tournament,
            request.user,
            tap_key=request.POST.get("tap_key", ""),
        )
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(n)s is paired.") % {"n": new_round.number})
    return redirect("tournament", tournament_id=tournament.pk)


def _pairing_for_member(request, tournament, pairing_id: int) -> TournamentPairing:
    return get_object_or_404(
        TournamentPairing.objects.select_related(
            "round__tournament__season__club", "player_a", "player_b"
        ),
        pk=pairing_id,
        round__tournament=tournament,
    )


@login_required
@require_POST
def pairing_report(
    request: HttpRequest, tournament_id: int, pairing_id: int
) -> HttpResponse:
    tournament, member = _tournament_for_member(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    form = PairingReportForm(request.POST)
    if form.is_valid():
        try:
            result = services.report_pairing_result(
                pairing,
                request.user,
                tap_key=request.POST.get("tap_key", ""),
                **form.cleaned_data,
            )
        except LeagueError as error:
            if not error.field:
                # Not about a field of the form (not this member's table, its
                # result already recorded): the form may not even be shown.
                messages.error(request, error.message)
                return redirect("tournament", tournament_id=tournament.pk)
            add_field_error(form, error)
        else:
            messages.success(
                request, _("Result reported: it counts once your opponent confirms it.")
            )
            return redirect("result", result_id=result.pk)
    return _page(request, tournament, member, report_form=form, report_table=pairing)


@login_required
@require_POST
def pairing_game(request: HttpRequest, tournament_id: int, pairing_id: int):
    tournament, _member = _tournament_for_member(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    try:
        services.count_game_for_pairing(pairing, request.user)
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your finished game counts for this table."))
    return redirect("tournament", tournament_id=tournament.pk)


@login_required
@require_http_methods(["GET", "POST"])
def table_game(request: HttpRequest, tournament_id: int, pairing_id: int):
    """Start the table's game in the app (issue #29): two phones, the opponent
    seated at once, its agreed result counted for the table in one step. A
    table whose game is started already opens it."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    if not pairing.has(request.user.pk):
        raise PermissionDenied("Players of the table only.")
    owner = requester(request)
    linked = pairing.game
    if request.method == "GET" and linked is not None and not linked.finished:
        return redirect("game", public_id=linked.public_id)
    form = TableGameForm(request.POST or None, owner=owner)
    if request.method == "POST" and form.is_valid():
        try:
            game = table_games.start_table_game(
                pairing,
                request.user,
                tap_key=request.POST.get("tap_key", ""),
                **form.game_arguments(),
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            return redirect("game", public_id=game.public_id)
    context = {"tournament": tournament, "pairing": pairing, "form": form}
    return render(request, "battles/league/table_game.html", context)


@login_required
@require_GET
def tournament_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The notice board: the current round's tables in big print."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    view = services.tournament_view(tournament)
    context = {
        "tournament": tournament,
        "season": tournament.season,
        "view": view,
        "columns": _columns(view),
    }
    return render(request, "battles/league/tournament_print.html", context)


@login_required
@require_GET
def tournament_qr(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The QR code of the tournament's page, for the notice board: a player
    scans it to find their table on their phone."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    return qr(request.build_absolute_uri(reverse("tournament", args=[tournament.pk])))


@login_required
@require_GET
@never_cache
def tournament_tables(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live box: the round's tables with their results, the clock, the
    organiser's "pair round N" button and the standings. The page fetches it
    when the day's stream says it changed (the report form, outside the box,
    is never lost)."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    context = _tables_context(request, tournament)
    response = render(request, "battles/league/tournament.html#live", context)
    response["Vary"] = "HX-Request"
    return response


@login_required
@require_GET
def tournament_stream(request: HttpRequest, tournament_id: int):
    """Server-Sent Events: "version N exists" when the day changes."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    seen = seen_version(request.headers.get("Last-Event-ID"), request.GET.get("since"))
    response = StreamingHttpResponse(
        tournament_events(tournament.pk, tournament.season_id, seen),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


# --- the organiser's actions (an admin of the club) ------------------------------


def _organiser(request, tournament_id: int):
    tournament, member = _tournament_for_member(request, tournament_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    return tournament


def _done(request, tournament, action, success: str) -> HttpResponse:
    """Run ``action``; its message (or the refusal's) shows on the day's page."""
    try:
        action()
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    return redirect("tournament", tournament_id=tournament.pk)


def _form_error(form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return _("Check the form.")


@login_required
@require_POST
def tournament_repair(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    return _done(
        request,
        tournament,
        lambda: services.repair_round(tournament, request.user),
        _("The round is paired again."),
    )


@login_required
@require_POST
def tournament_finish(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    return _done(
        request,
        tournament,
        lambda: services.finish_tournament(tournament, request.user),
        _("The standings are final."),
    )


@login_required
@require_POST
def tournament_clock(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    return _done(
        request,
        tournament,
        lambda: services.start_clock(tournament, request.user),
        _("The round clock is running."),
    )


@login_required
@require_POST
def tournament_drop(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    form = EntrantForm(request.POST, entrants=tournament.players.select_related("user"))
    if not form.is_valid():
        messages.error(request, _form_error(form))
        return redirect("tournament", tournament_id=tournament.pk)
    return _done(
        request,
        tournament,
        lambda: services.drop_player(
            tournament, request.user, form.cleaned_data["player"]
        ),
        _("The player has dropped: never paired again, kept in the standings."),
    )


@login_required
@require_POST
def tournament_late(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    candidates = league_services.club_members(tournament.season)
    form = LateEntryForm(request.POST, candidates=candidates)
    if not form.is_valid():
        messages.error(request, _form_error(form))
        return redirect("tournament", tournament_id=tournament.pk)
    return _done(
        request,
        tournament,
        lambda: services.add_late_player(
            tournament,
            request.user,
            form.cleaned_data["user"],
            form.cleaned_data.get("people") or "",
        ),
        _("Late entry: paired from the next round."),
    )


@login_required
@require_POST
def tournament_guest(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    form = GuestForm(request.POST)
    if not form.is_valid():
        messages.error(request, _form_error(form))
        return redirect("tournament", tournament_id=tournament.pk)
    return _done(
        request,
        tournament,
        lambda: services.add_guest(
            tournament,
            request.user,
            form.cleaned_data["name"],
            form.cleaned_data.get("people") or "",
        ),
        _("Guest added: the organiser enters the results of their tables."),
    )


@login_required
@require_POST
def tournament_adjust(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    form = AdjustmentForm(
        request.POST, entrants=tournament.players.select_related("user")
    )
    if not form.is_valid():
        messages.error(request, _form_error(form))
        return redirect("tournament", tournament_id=tournament.pk)
    data = form.cleaned_data
    return _done(
        request,
        tournament,
        lambda: services.add_adjustment(
            tournament, request.user, data["player"], data["points"], data["reason"]
        ),
        _("Points recorded, with their reason."),
    )


@login_required
@require_POST
def table_result(
    request: HttpRequest, tournament_id: int, pairing_id: int
) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    form = TableResultForm(request.POST, pairing=pairing)
    if not form.is_valid():
        messages.error(request, _form_error(form))
        return redirect("tournament", tournament_id=tournament.pk)
    return _done(
        request,
        tournament,
        lambda: services.record_table_result(
            tournament, request.user, pairing.pk, **form.cleaned_data
        ),
        _("The table's result counts."),
    )


@login_required
@require_POST
def table_forfeit(
    request: HttpRequest, tournament_id: int, pairing_id: int
) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    form = ForfeitForm(request.POST, pairing=pairing)
    if not form.is_valid():
        messages.error(request, _form_error(form))
        return redirect("tournament", tournament_id=tournament.pk)
    return _done(
        request,
        tournament,
        lambda: services.record_forfeit(
            tournament, request.user, pairing.pk, form.cleaned_data["forfeiter"]
        ),
        _("The forfeit counts, with the day's forfeit score."),
    )


@login_required
@require_POST
def table_confirm(
    request: HttpRequest, tournament_id: int, pairing_id: int
) -> HttpResponse:
    tournament = _organiser(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    return _done(
        request,
        tournament,
        lambda: services.confirm_table_result(tournament, request.user, pairing.pk),
        _("The table's result counts."),
    )


@login_required
@require_GET
@never_cache
def tournament_mine(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The home page's "Round 3: your table 4" box, fetched when the day changes."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    version = tournament_version(tournament.pk)  # first, as in _tables_context
    found = services.my_table(request.user, tournament) or {}
    context = {**found, "tournament": tournament, "version": version}
    response = render(request, "battles/league/tournament_home.html#box", context)
    response["Vary"] = "HX-Request"
    return response
