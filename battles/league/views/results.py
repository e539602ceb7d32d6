"""A league result's pages: reporting one, the result page, the players'
answers and an admin's confirm, correct or void (issue #29: never alone over
a game they played)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.league import services
from battles.league.forms.league import (
    CorrectForm,
    DisputeForm,
    ReasonForm,
    ReportForm,
)
from battles.league.models.league import (
    ResultStatus,
)
from battles.league.services.errors import LeagueError
from battles.league.views.access import refuse, result_for_member, season_for_member
from battles.validation import add_field_error

User = get_user_model()


# --- results --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def result_report(request: HttpRequest, season_id: int) -> HttpResponse:
    """Report a game played without the app; the opponent confirms it."""
    season, _member = season_for_member(request, season_id)
    if not season.accepts_results:  # a closed season offers no report form
        messages.error(request, services.closed_message(season))
        return redirect("season", season_id=season.pk)
    opponents = [u for u in services.club_members(season) if u.pk != request.user.pk]
    form = ReportForm(
        request.POST or None,
        opponents=opponents,
        initial={"played_on": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            result = services.report_result(
                season,
                request.user,
                opponent_id=data["opponent"],
                played_on=data["played_on"],
                result=data["result"],
                score_for=data["score_for"],
                score_against=data["score_against"],
                people_for=data["people_for"],
                people_against=data["people_against"],
                army_for=data["army_for"],
                army_against=data["army_against"],
                second_game=data["second_game"],
                tap_key=data["tap_key"] or None,
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(
                request, _("Result reported: it counts once your opponent confirms it.")
            )
            return redirect("result", result_id=result.pk)
    context = {"season": season, "form": form}
    return render(request, "battles/league/report.html", context)


# The result page holds several forms with a "reason": each its own ids.
AUTO_IDS = {
    "settle": "settle_%s",
    "refuse": "refuse_%s",
    "correct": "correct_%s",
    "dispute": "dispute_%s",
}


def _result_context(request, result, member, **extra) -> dict:
    user = request.user
    waiting_for_me = (
        result.status == ResultStatus.PENDING
        and user.pk in (result.player_a_id, result.player_b_id)
        and user.pk != result.reported_by_id
    )
    initial = {
        "played_on": result.played_on,
        "outcome": result.outcome,
        "score_a": result.score_a,
        "score_b": result.score_b,
        "people_a": result.people_a,
        "people_b": result.people_b,
    }
    # A dispute's counter-score is what the admin most likely sets.
    initial.update(services.disputed_counter(result) or {})
    correct = extra.pop("correct_form", None) or CorrectForm(
        result=result, initial=initial, auto_id=AUTO_IDS["correct"]
    )
    dispute = extra.pop("dispute_form", None) or DisputeForm(
        result=result,
        initial={
            "outcome": result.outcome,
            "score_a": result.score_a,
            "score_b": result.score_b,
        },
        auto_id=AUTO_IDS["dispute"],
    )
    change_to_dispute = services.admin_change_to_dispute(result, user)
    history = services.result_history(result)
    people = [result.player_a_id, result.player_b_id]
    names = services.shown_names([*people, *(e.actor_id for e in history)])
    return {
        "result": result,
        "season": result.season,
        "member": member,
        "history": history,
        "names": names,
        "waiting_for_me": waiting_for_me,
        "may_withdraw": result.status == ResultStatus.PENDING
        and user.pk == result.reported_by_id,
        "may_answer_proposal": services.may_answer_proposal(result, user, member),
        "admin_plays": member.is_admin and result.side_of(user.pk) is not None,
        "admin_has_say": services.has_say(result, member),
        "change_to_dispute": change_to_dispute,
        "second_game": services.is_second_game(result),
        "reason_form": extra.pop("reason_form", None)
        or ReasonForm(auto_id=AUTO_IDS["settle"]),
        "refuse_form": extra.pop("refuse_form", None)
        or ReasonForm(auto_id=AUTO_IDS["refuse"]),
        "correct_form": correct,
        "dispute_form": dispute,
        **extra,
    }


@login_required
@require_GET
def result_page(request: HttpRequest, result_id: int) -> HttpResponse:
    """A result, its history, and what this person may do about it."""
    result, member = result_for_member(request, result_id)
    return render(
        request, "battles/league/result.html", _result_context(request, result, member)
    )


def _after_result_action(request, result) -> HttpResponse:
    url = reverse("result", args=[result.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


ANSWERS = {
    "confirm": gettext_lazy("Result confirmed: it counts in the standings."),
    "withdraw": gettext_lazy("Report withdrawn."),
    "approve": gettext_lazy("Agreed: the admin's change is done."),
}


@login_required
@require_POST
def result_answer(request: HttpRequest, result_id: int, verdict: str) -> HttpResponse:
    """The opponent confirms or disputes a reported result; the reporter
    withdraws it; the opponent answers a playing admin's change; either
    player disputes an admin's change of their game."""
    result, member = result_for_member(request, result_id)
    if verdict not in ("confirm", "dispute", "withdraw", "approve", "refuse"):
        raise Http404("No such answer.")
    try:
        if verdict == "confirm":
            services.confirm_result(result, request.user)
        elif verdict == "withdraw":
            services.withdraw_result(result, request.user)
        elif verdict == "approve":
            services.approve_proposal(result, request.user)
        elif verdict == "refuse":
            form = ReasonForm(request.POST, auto_id=AUTO_IDS["refuse"])
            if not form.is_valid():
                raise LeagueError(_("Say why (the reason is kept in the history)."))
            services.refuse_proposal(result, request.user, form.cleaned_data["reason"])
            messages.success(request, _("The admin's change is refused."))
            return _after_result_action(request, result)
        else:
            form = DisputeForm(request.POST, result=result, auto_id=AUTO_IDS["dispute"])
            if not form.is_valid():
                context = _result_context(request, result, member, dispute_form=form)
                return render(request, "battles/league/result.html", context)
            data = form.cleaned_data
            services.dispute_result(
                result,
                request.user,
                data["reason"],
                outcome=data["outcome"] or None,
                score_a=data["score_a"],
                score_b=data["score_b"],
            )
            messages.success(request, _("Result disputed: an admin will settle it."))
            return _after_result_action(request, result)
    except LeagueError as error:
        refuse(request, error)
    else:
        messages.success(request, str(ANSWERS[verdict]))
    return _after_result_action(request, result)


@login_required
@require_POST
def result_admin(request: HttpRequest, result_id: int, action: str) -> HttpResponse:
    """An admin confirms, voids or corrects a result, with a reason (of a game
    they played: it waits for the opponent's agreement)."""
    result, member = result_for_member(request, result_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    if action not in ("confirm", "void", "correct"):
        raise Http404("No such action.")
    if action == "correct":
        form = CorrectForm(request.POST, result=result, auto_id=AUTO_IDS["correct"])
    else:
        form = ReasonForm(request.POST, auto_id=AUTO_IDS["settle"])
    if form.is_valid():
        data = form.cleaned_data
        try:
            if action == "confirm":
                done = services.admin_confirm(result, request.user, data["reason"])
            elif action == "void":
                done = services.admin_void(result, request.user, data["reason"])
            else:
                done = services.admin_correct(
                    result,
                    request.user,
                    data["reason"],
                    played_on=data["played_on"],
                    outcome=data["outcome"],
                    score_a=data["score_a"],
                    score_b=data["score_b"],
                    people_a=data["people_a"],
                    people_b=data["people_b"],
                )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            if done.proposal:
                messages.info(
                    request,
                    _(
                        "You played this game: your change waits for your "
                        "opponent's agreement."
                    ),
                )
            else:
                messages.success(
                    request, _("Done; the history keeps who did it and why.")
                )
            return _after_result_action(request, result)
    extra = {"correct_form": form} if action == "correct" else {"reason_form": form}
    extra["failed_action"] = action
    context = _result_context(request, result, member, **extra)
    return render(request, "battles/league/result.html", context, status=200)
