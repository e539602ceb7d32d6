"""Spells and miracles in the app (X, XI; issue #32): the library's and the
player's own listed, his own typed, changed and deleted by hand like custom
cards, and the community catalogues (``AA-Spells.cat``, ``AA-Miracles.cat``)
uploaded, with what was not understood listed. Thin views: the forms check
what is typed, ``battles.services.mystic`` saves."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.files.battlescribe import MAX_FILE_BYTES
from battles.forms.armies import add_errors
from battles.forms.mystic import MiracleForm, MysticCatalogueForm, SpellForm
from battles.identity import requester
from battles.models.mystic import Miracle, Spell
from battles.presenters.words import gem_words
from battles.services.armies import ArmyError
from battles.services.mystic import (
    MYSTIC_FIELDS,
    delete_mystic,
    import_mystic_catalogue,
    own_mystic,
    save_mystic,
)

KINDS = {"spell": (Spell, SpellForm), "miracle": (Miracle, MiracleForm)}


def _kind(kind: str):
    if kind not in KINDS:
        raise Http404("No such kind.")
    return KINDS[kind]


def _worded(spells) -> list[Spell]:
    """The spells, each with its gems in words ("2 fire", in the reader's
    language) as ``cost_words``."""
    found = list(spells)
    for spell in found:
        spell.cost_words = gem_words(spell.cost)
    return found


def _list_context(request: HttpRequest, form=None, summary=None) -> dict:
    owner = requester(request)
    saved = request.GET.get("saved", "")
    own = owner.q() if owner.is_anyone else None
    return {
        "library_spells": _worded(Spell.objects.shared()),
        "library_miracles": Miracle.objects.shared(),
        "own_spells": _worded(Spell.objects.filter(own)) if own else [],
        "own_miracles": Miracle.objects.filter(own) if own else Miracle.objects.none(),
        "form": form or MysticCatalogueForm(),
        "summary": summary,
        "shared": request.user.is_staff,
        "saved_kind": saved.partition("-")[0],
        "saved_pk": int(saved.partition("-")[2])
        if saved.partition("-")[2].isdigit()
        else None,
    }


@require_GET
def mystic_list(request: HttpRequest) -> HttpResponse:
    return render(request, "battles/armies/mystic_list.html", _list_context(request))


@require_POST
def mystic_import(request: HttpRequest) -> HttpResponse:
    """A catalogue's spells and miracles: staff into the shared library,
    everyone else into their own."""
    form = MysticCatalogueForm(request.POST, request.FILES)
    summary = None
    if form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            form.add_error("file", _("The file is larger than 5 MB."))
        else:
            owner = None if request.user.is_staff else requester(request, create=True)
            try:
                summary = import_mystic_catalogue(
                    upload.read(), owner=owner, source_detail=upload.name
                )
            except ArmyError as error:
                for message in error.messages:  # the file's problem, by it
                    form.add_error("file", message)
    return render(
        request,
        "battles/armies/mystic_list.html",
        _list_context(request, form, summary),
    )


@require_http_methods(["GET", "POST"])
def mystic_edit(request: HttpRequest, kind: str, pk: int | None = None) -> HttpResponse:
    """A new spell or miracle typed by hand, or one of the player's own changed."""
    model, form_class = _kind(kind)
    item = None
    if pk is not None:
        item = own_mystic(model, requester(request), pk)
        if item is None:
            raise Http404("Not one of yours.")
    form = form_class(request.POST or None, instance=item)
    if request.method == "POST" and form.is_valid():
        values = {
            key: form.cleaned_data[key]
            for key in MYSTIC_FIELDS[model]
            if key in form.cleaned_data
        }
        if model is Spell:
            values["cost"] = form.cost()
        try:
            saved = save_mystic(
                model, requester(request, create=True), values, item=item
            )
        except ArmyError as error:
            add_errors(form, error)
        else:
            return redirect(
                f"{reverse('mystic')}?saved={kind}-{saved.pk}#{kind}-{saved.pk}"
            )
    return render(
        request,
        "battles/armies/mystic_form.html",
        {"form": form, "kind": kind, "item": item},
    )


@require_POST
def mystic_delete(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    model, _form = _kind(kind)
    item = own_mystic(model, requester(request), pk)
    if item is None:
        raise Http404("Not one of yours.")
    delete_mystic(item)
    return redirect(reverse("mystic"))
