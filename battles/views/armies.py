"""Armies and reference cards: thin views (who asks → one service → render).

Who owns an army: a logged-in user, or a guest through a random key kept in
the session (``battles.identity``), so a guest builds an army without an
account. Another owner's army is a 404 (not a 403: it does not exist for them).
Demo armies are readable by everyone and changed by no one; "Copy" duplicates
one into the requester's armies.

htmx: the army page answers ``#cards`` (its card list and points total) to an
htmx request and the whole page otherwise (``Vary: HX-Request``); every POST
also works without JavaScript (it then redirects to the page).
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from battles.files import army_json
from battles.files.army_json import ArmyImportError
from battles.files.battlescribe import MAX_FILE_BYTES
from battles.forms.armies import (
    AddCardForm,
    ArmyForm,
    ArmyImportForm,
    CatalogueUploadForm,
    CountForm,
    ReferenceCardForm,
    add_errors,
)
from battles.identity import requester
from battles.models.armies import Army, Owner, ReferenceCard
from battles.models.mystic import Miracle, Spell
from battles.services import armies as services
from battles.services.armies import RESTORE_WINDOW, ArmyError
from battles.services.catalogues import import_catalogue
from battles.services.mystic import set_known
from battles.validation import CONTROL_CHARACTERS

UNDO_SESSION_KEY = "armies_undo"
LIBRARY_LIMIT = 30


# One guest identity for armies and games (battles.identity).
_owner = requester


def _get_army_for_owner(request: HttpRequest, army_id: int) -> Army:
    """The requester's own (not deleted) army with its cards, or 404."""
    army = (
        Army.objects.with_cards()
        .alive()
        .owned_by(_owner(request))
        .filter(pk=army_id)
        .first()
    )
    if army is None:
        raise Http404("No such army.")
    return army


def _get_army_for_reader(request: HttpRequest, army_id: int) -> Army:
    """The requester's own army or a demo army (read-only), or 404."""
    owner = _owner(request)
    army = Army.objects.with_cards().alive().filter(pk=army_id).first()
    if army is None or not (
        army.is_shared or Army.objects.owned_by(owner).filter(pk=army.pk).exists()
    ):
        raise Http404("No such army.")
    return army


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """Redirect, the htmx way for an htmx request."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _army_url(army: Army) -> str:
    return reverse("army", args=[army.pk])


def _library(request: HttpRequest, army: Army, query: str, allies: bool):
    cards = ReferenceCard.objects.visible_to(_owner(request)).with_details()
    if not allies:
        cards = cards.filter(people=army.people)
    if query:
        cards = cards.filter(name__icontains=query)
    return list(cards.order_by("people__name", "name")[:LIBRARY_LIMIT])


def _army_context(
    request: HttpRequest, army: Army, *, with_library: bool = True
) -> dict:
    owner = _owner(request)
    editable = not army.is_shared and owner.is_anyone
    # A search never fails: control characters (NUL...) are dropped from it.
    query = CONTROL_CHARACTERS.sub("", request.GET.get("q") or "").strip()[:80]
    allies = request.GET.get("allies") == "1"
    context = {
        "army": army,
        "editable": editable,
        "query": query,
        "allies": allies,
        "library": (
            _library(request, army, query, allies) if editable and with_library else []
        ),
        "card_error": "",
        **_mystic_choices(owner, editable and _has_mystics(army)),
    }
    return context


MYSTIC_CHOICES = 100  # spells (or miracles) offered on one army card


def _has_mystics(army: Army) -> bool:
    """Whether a card of the army is a magician (POU) or a faithful (FOI)."""
    return any(
        c.card.pou is not None or c.card.foi is not None for c in army.cards.all()
    )


def _mystic_choices(owner: Owner, editable: bool) -> dict:
    """The spells and miracles an army's magicians and faithful may know."""
    if not editable:
        return {"spell_choices": [], "miracle_choices": []}
    return {
        "spell_choices": list(
            Spell.objects.visible_to(owner).order_by("name")[:MYSTIC_CHOICES]
        ),
        "miracle_choices": list(
            Miracle.objects.visible_to(owner).order_by("name")[:MYSTIC_CHOICES]
        ),
    }


def _render_cards(request: HttpRequest, army_id: int, error: str = "") -> HttpResponse:
    """After a change: fresh state from the database ("view restart")."""
    army = _get_army_for_owner(request, army_id)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_army_url(army))
    return render(
        request,
        "battles/armies/army.html#cards",
        {
            "army": army,
            "editable": True,
            "card_error": error,
            **_mystic_choices(_owner(request), _has_mystics(army)),
        },
    )


# --- Pages -------------------------------------------------------------------
@require_GET
def army_list(request: HttpRequest) -> HttpResponse:
    owner = _owner(request)
    return render(
        request,
        "battles/armies/list.html",
        _list_context(request, owner, ArmyForm(owner=owner), ArmyImportForm()),
    )


def _list_context(request, owner: Owner, form, import_form, problems=()) -> dict:
    armies = Army.objects.with_cards().alive().owned_by(owner).order_by("name")
    demo_armies = Army.objects.with_cards().alive().demo().order_by("name")
    undo = None
    undo_id = request.session.get(UNDO_SESSION_KEY)
    if undo_id:
        undo = (
            Army.objects.owned_by(owner)
            .filter(pk=undo_id, deleted_at__isnull=False)
            .first()
        )
    new_card = request.GET.get("card", "")
    return {
        "armies": armies,
        "demo_armies": demo_armies,
        "own_cards": ReferenceCard.objects.owned_by(owner)
        .select_related("people")
        .order_by("name"),
        "new_card": int(new_card) if new_card.isdigit() else None,
        "form": form,
        "import_form": import_form,
        "import_problems": list(problems),
        "undo": undo,
        "restore_minutes": int(RESTORE_WINDOW.total_seconds() // 60),
    }


@require_POST
def army_create(request: HttpRequest) -> HttpResponse:
    form = ArmyForm(request.POST, owner=_owner(request))
    if form.is_valid():
        try:
            army = services.create_army(
                _owner(request, create=True),
                name=form.cleaned_data["name"],
                people=form.cleaned_data["people"],
                points_limit=form.cleaned_data["points_limit"],
                tap_key=request.POST.get("tap_key", ""),
            )
        except ArmyError as error:
            add_errors(form, error)
        else:
            return _go(request, _army_url(army))
    if request.htmx:
        return render(request, "battles/armies/list.html#create-form", {"form": form})
    context = _list_context(request, _owner(request), form, ArmyImportForm())
    return render(request, "battles/armies/list.html", context)


@require_GET
@vary_on_headers("HX-Request")
def army_detail(request: HttpRequest, army_id: int) -> HttpResponse:
    army = _get_army_for_reader(request, army_id)
    context = _army_context(request, army, with_library=not request.htmx)
    if request.htmx:
        return render(request, "battles/armies/army.html#cards", context)
    return render(request, "battles/armies/army.html", context)


@require_GET
@vary_on_headers("HX-Request")
def army_library(request: HttpRequest, army_id: int) -> HttpResponse:
    """The library search: cards the requester may add to this army."""
    army = _get_army_for_owner(request, army_id)
    if not request.htmx:
        return redirect(f"{_army_url(army)}?{request.GET.urlencode()}")
    return render(
        request, "battles/armies/army.html#library", _army_context(request, army)
    )


@require_GET
def army_sheet(request: HttpRequest, army_id: int) -> HttpResponse:
    """A printable one-page army sheet."""
    army = _get_army_for_reader(request, army_id)
    return render(request, "battles/armies/sheet.html", {"army": army})


@require_GET
def army_export(request: HttpRequest, army_id: int) -> HttpResponse:
    army = _get_army_for_reader(request, army_id)
    data = army_json.export_army_json(army)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    filename = slugify(army.name) or "army"
    response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
    return response


# --- Actions on an army --------------------------------------------------------------
@require_POST
def army_add_card(request: HttpRequest, army_id: int) -> HttpResponse:
    army = _get_army_for_owner(request, army_id)
    form = AddCardForm(request.POST)
    if not form.is_valid():
        return _render_cards(request, army.pk, _("Choose a card to add."))
    card = (
        ReferenceCard.objects.visible_to(_owner(request))
        .select_related("people")
        .filter(pk=form.cleaned_data["card"])
        .first()
    )
    if card is None:
        return _render_cards(request, army.pk, _("That card is not in your library."))
    before = {army_card.card_id for army_card in army.cards.all()}
    try:
        added = services.add_card(army, card, is_ally=form.cleaned_data["is_ally"])
    except ArmyError as error:
        return _render_added(request, army.pk, card, error=" ".join(error.messages))
    return _render_added(
        request, army.pk, card, added_id=added.pk, raised=card.pk in before
    )


def _render_added(
    request: HttpRequest,
    army_id: int,
    card: ReferenceCard,
    *,
    added_id: int | None = None,
    raised: bool = False,
    error: str = "",
) -> HttpResponse:
    """The army's cards, and the answer next to the card's "Add" button (an
    out-of-band swap): its count and points in the army, or why not."""
    if not request.htmx:
        return _render_cards(request, army_id, error)
    army = _get_army_for_owner(request, army_id)
    added = next((item for item in army.cards.all() if item.pk == added_id), None)
    context = {
        "army": army,
        "editable": True,
        "card_error": "",  # the message goes next to the button instead
        "card": card,
        "added": added,
        "raised": raised,
        "added_error": error,
        "oob": True,
    }
    cards = render_to_string("battles/armies/army.html#cards", context, request)
    note = render_to_string("battles/armies/army.html#added-note", context, request)
    return HttpResponse(cards + note)


@require_POST
def army_change_count(
    request: HttpRequest, army_id: int, army_card_id: int
) -> HttpResponse:
    army = _get_army_for_owner(request, army_id)
    form = CountForm(request.POST)
    if not form.is_valid():
        return _render_cards(request, army.pk, _("Tap + or −."))
    try:
        services.change_count(army, army_card_id, form.cleaned_data["delta"])
    except ArmyError as error:
        return _render_cards(request, army.pk, " ".join(error.messages))
    return _render_cards(request, army.pk)


@require_POST
def army_card_known(
    request: HttpRequest, army_id: int, army_card_id: int
) -> HttpResponse:
    """The spells a magician card knows, the miracles a faithful calls (X, XI)."""
    army = _get_army_for_owner(request, army_id)
    army_card = next((c for c in army.cards.all() if c.pk == army_card_id), None)
    if army_card is None:
        raise Http404("No such card in this army.")
    names = {
        key: [n[:120] for n in request.POST.getlist(key)[:MYSTIC_CHOICES]]
        for key in ("spells", "miracles")
    }
    try:
        set_known(
            army_card,
            _owner(request),
            spells=names["spells"],
            miracles=names["miracles"],
        )
    except ArmyError as error:
        return _render_cards(request, army.pk, " ".join(error.messages))
    return _render_cards(request, army.pk)


@require_POST
def army_remove_card(
    request: HttpRequest, army_id: int, army_card_id: int
) -> HttpResponse:
    army = _get_army_for_owner(request, army_id)
    try:
        services.remove_card(army, army_card_id)
    except ArmyError as error:
        return _render_cards(request, army.pk, " ".join(error.messages))
    return _render_cards(request, army.pk)


@require_POST
def army_duplicate(request: HttpRequest, army_id: int) -> HttpResponse:
    army = _get_army_for_reader(request, army_id)
    try:
        copy = services.duplicate_army(army, _owner(request, create=True))
    except ArmyError as error:
        messages.error(request, " ".join(error.messages))
        return _go(request, _army_url(army))
    return _go(request, _army_url(copy))


@require_POST
def army_delete(request: HttpRequest, army_id: int) -> HttpResponse:
    army = _get_army_for_owner(request, army_id)
    services.delete_army(army)
    request.session[UNDO_SESSION_KEY] = army.pk
    return _go(request, reverse("armies"))


@require_POST
def army_restore(request: HttpRequest, army_id: int) -> HttpResponse:
    try:
        army = services.undo_delete(_owner(request), army_id)
    except ArmyError as error:
        messages.error(request, " ".join(error.messages))
        return _go(request, reverse("armies"))
    request.session.pop(UNDO_SESSION_KEY, None)
    return _go(request, _army_url(army))


@require_POST
def army_import(request: HttpRequest) -> HttpResponse:
    form = ArmyImportForm(request.POST, request.FILES)
    problems: list[tuple[str, str]] = []
    if form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > army_json.MAX_IMPORT_BYTES:
            form.add_error("file", _("The file is larger than 1 MB."))
        else:
            try:
                army = army_json.import_army_json(
                    _owner(request, create=True), upload.read()
                )
            except ArmyImportError as error:
                problems = error.problems
                form.add_error(
                    "file", _("This file was refused: nothing was imported.")
                )
            else:
                return _go(request, _army_url(army))
    owner = _owner(request)
    context = _list_context(request, owner, ArmyForm(owner=owner), form, problems)
    return render(request, "battles/armies/list.html", context)


# --- Cards ------------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def card_create(request: HttpRequest) -> HttpResponse:
    """A custom reference card; with ``?army=<id>`` it comes back to that army."""
    army = None
    army_id = request.GET.get("army") or request.POST.get("army")
    if army_id and str(army_id).isdigit():
        army = _get_army_for_owner(request, int(army_id))
    initial = {"people": army.people_id} if army else {}
    form = ReferenceCardForm(
        request.POST or None, initial=initial, owner=_owner(request)
    )
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        abilities = data.pop("abilities", "")
        try:
            card = services.create_custom_card(
                _owner(request, create=True),
                abilities=abilities,
                tap_key=request.POST.get("tap_key", ""),
                **data,
            )
        except ArmyError as error:
            add_errors(form, error)
        else:
            if army is None:
                # It lands on the page that lists the person's own cards.
                return _go(
                    request, f"{reverse('armies')}?card={card.pk}#card-{card.pk}"
                )
            query = {"q": card.name}
            if card.people_id != army.people_id:
                query["allies"] = "1"
            return _go(request, f"{_army_url(army)}?{urlencode(query)}#library")
    context = {"form": form, "army": army}
    if request.htmx:
        return render(request, "battles/armies/card_form.html#card-form", context)
    return render(request, "battles/armies/card_form.html", context)


@require_http_methods(["GET", "POST"])
def catalogue_upload(request: HttpRequest) -> HttpResponse:
    """Import a BattleScribe catalogue's profiles: staff into the shared
    library, everyone else into their own cards."""
    form = CatalogueUploadForm(
        request.POST or None,
        request.FILES or None,
        owner=None if request.user.is_staff else _owner(request),
    )
    summary = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            form.add_error("file", _("The file is larger than 5 MB."))
        else:
            owner = None if request.user.is_staff else _owner(request, create=True)
            try:
                summary = import_catalogue(
                    upload.read(), owner=owner, people=form.cleaned_data["people"]
                )
            except ArmyError as error:
                add_errors(form, error)
    return render(
        request,
        "battles/armies/catalogue.html",
        {"form": form, "summary": summary, "shared": request.user.is_staff},
    )
