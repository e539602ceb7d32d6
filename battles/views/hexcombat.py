"""The hex combat sheet ("Fiche Combat"): live advantage, table, odds, losses.

One page usable without an account. The form is posted by htmx on every
change; the view parses it (``battles.forms.hexcombat``), asks
``rules.hexcombat`` for every sum, and renders the result partial (or the
whole page without htmx). Nothing is stored: this is a calculator, not a game,
so the server's dice need no verifiable seed.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from battles.forms.hexcombat import FORMS, SheetForm, ShockForm, initial_data
from rules import hexcombat as hx
from rules.dice import SeededDice

ACTIONS = ("roll", "read")


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def hexcombat(request: HttpRequest) -> HttpResponse:
    params = request.POST if request.method == "POST" else request.GET
    form_class = FORMS.get(params.get("mode", "shock"))
    mode_error = ""
    if form_class is None:
        form_class = ShockForm
        mode_error = _("Unknown combat type: choose shock or shooting.")
    if request.method == "POST":
        form = form_class(request.POST)
        action = request.POST.get("action", "")
    else:
        form = form_class(initial_data(form_class))
        action = ""
    sheet = _work_out(form, action) if form.is_valid() else None
    context = {
        "form": form,
        "mode": form_class.mode,
        "mode_error": mode_error,
        "sheet": sheet,
        "oob": request.htmx,
    }
    template = "battles/hexcombat.html"
    if request.htmx:
        template += "#result"
    return render(request, template, context)


def _work_out(form: SheetForm, action: str) -> dict | None:
    """Ask the rules for the advantage, odds and (if rolled) losses."""
    shock = form.mode == "shock"
    plan = None
    if shock:
        advantage = hx.shock_advantage(form.situation())
        shots = 1
        problems: tuple[hx.SheetItem, ...] = ()
    else:
        plan = hx.plan_fire(form.situation())
        advantage, shots, problems = plan.advantage, plan.cadence.shots, plan.problems
    total = advantage.total
    if abs(total) > hx.ADVANTAGE_LIMIT:
        form.add_error(
            None,
            _("The advantage must stay between −50 and +50; check the numbers."),
        )
        return None
    sheet = {
        "shock": shock,
        "advantage": advantage,
        "total": total,
        "column": hx.column_for(total),
        "plan": plan,
        "shots": shots,
        "problems": problems,
        "odds": [
            (count, float(chance * 100))
            for count, chance in hx.volley_odds(total, shots).items()
        ],
        "double_chance": float(hx.double_odds(shots) * 100),
        "resolution": None,
        "faces_missing": 0,
    }
    resolution = _roll(form, action, total, shots, problems, sheet)
    if resolution is not None:
        sheet["resolution"] = resolution
        sheet["checklist"] = hx.loss_checklist(
            form.loss_state(resolution.losses, shock=shock)
        )
        if not shock and resolution.doubles:
            sheet["ammunition_after"] = hx.ammunition_after(
                form.cleaned_data["ammunition"], resolution.doubles
            )
    return sheet


def _roll(form, action, total, shots, problems, sheet) -> hx.Resolution | None:
    """The server's roll, or the faces typed from real dice, if any."""
    if problems and action in ACTIONS:
        form.add_error(None, _("The sheet forbids this shot: see below."))
        return None
    if problems:
        return None
    if action == "roll":
        return hx.resolve(total, SeededDice(secrets.token_hex(16)), shots=shots)
    faces = form.cleaned_data.get("faces") or ()
    needed = 2 * shots
    if len(faces) == needed:
        return hx.resolve_faces(total, faces, shots=shots)
    if len(faces) > needed or action == "read":
        form.add_error(
            "faces",
            ngettext(
                "Enter %(count)d faces: two for the roll.",
                "Enter %(count)d faces: two for each of the %(shots)d rolls.",
                shots,
            )
            % {"count": needed, "shots": shots},
        )
    elif faces:
        sheet["faces_missing"] = needed - len(faces)
    return None
