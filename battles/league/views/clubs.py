"""The clubs' pages: the list, a club, its admin page, invitations and
joining by one (signed in; members and admins as each page says)."""

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
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.league import services
from battles.league.forms.league import (
    ClubForm,
)
from battles.league.models.league import (
    Club,
    Invitation,
    Membership,
)
from battles.league.notices import notice_words
from battles.league.services.errors import LeagueError
from battles.league.views.access import club_for_admin, qr, refuse
from battles.validation import add_field_error
from battles.views.csrf import no_referrer_page

User = get_user_model()

INVITE_TOKENS = "club_invitation_tokens"


# --- clubs ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The clubs you belong to, joining one by its invitation link, and a new
    club (no list of every club: issue #29)."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                request.user,
                form.cleaned_data["name"],
                form.cleaned_data["description"],
                tap_key=request.POST.get("tap_key", ""),
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(request, _("Club created: you are its admin."))
            return redirect("club", club_id=club.pk)
    link = request.GET.get("invitation", "").strip()
    if link:  # joining by link: the invitation's page, found by its token
        token = link.rstrip("/").rsplit("/", 1)[-1]
        if token:
            return redirect("club_join", token=token)
    # Only her own clubs: the directory of every club is nobody's business.
    mine = Membership.objects.filter(user=request.user).select_related("club")
    context = {"form": form, "mine": mine}
    return render(request, "battles/league/clubs.html", context)


@login_required  # not listed to anonymous visitors by sequential ids
@require_GET
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's page: its name, its seasons; members see more."""
    club = get_object_or_404(Club, pk=club_id)
    member = services.membership(club, request.user)
    context = {
        "club": club,
        "member": member,
        "seasons": club.seasons.filter(archived=False),
        "archived": club.seasons.filter(archived=True),
        "members": (
            club.members.select_related("user").order_by("user__username")
            if member
            else None
        ),
        "member_count": club.members.count(),
        "notices": [
            notice_words(row)
            for row in services.notices_for(request.user)
            if row.club_id == club.pk
        ],
    }
    return render(request, "battles/league/club.html", context)


@login_required
@require_GET
@never_cache
def club_admin(request: HttpRequest, club_id: int) -> HttpResponse:
    """Members (remove, promote), invitations, the audit."""
    club, _member = club_for_admin(request, club_id)
    tokens = request.session.get(INVITE_TOKENS, {})
    invitations = []
    for invitation in club.invitations.select_related("used_by", "created_by")[:50]:
        token = services.invitation_token(invitation) or tokens.get(str(invitation.pk))
        url = (
            request.build_absolute_uri(reverse("club_join", args=[token]))
            if token and invitation.usable
            else ""
        )
        invitations.append({"row": invitation, "url": url})
    context = {
        "club": club,
        "members": club.members.select_related("user").order_by("user__username"),
        "invitations": invitations,
        "audit": services.club_audit(club),
        "removed": services.removed_members(club),
    }
    return render(request, "battles/league/club_admin.html", context)


@login_required
@require_POST
def club_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    club, _member = club_for_admin(request, club_id)
    try:
        issued = services.make_invitation(
            club,
            request.user,
            tap_key=request.POST.get("tap_key", ""),
        )
    except LeagueError as error:
        messages.error(request, error.message)
        return redirect("club_admin", club_id=club.pk)
    tokens = dict(request.session.get(INVITE_TOKENS, {}))
    tokens[str(issued.row.pk)] = issued.token
    request.session[INVITE_TOKENS] = tokens
    messages.success(request, _("Invitation ready: show its QR code or send the link."))
    return redirect("club_admin", club_id=club.pk)


@login_required
@require_GET
@never_cache
def club_invite_qr(request: HttpRequest, club_id: int, invitation_id: int):
    club, _member = club_for_admin(request, club_id)
    invitation = Invitation.objects.filter(club=club, pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    token = services.invitation_token(invitation) or request.session.get(
        INVITE_TOKENS, {}
    ).get(str(invitation_id))
    if not token:
        raise Http404("No such invitation.")
    return qr(request.build_absolute_uri(reverse("club_join", args=[token])))


@login_required
@require_POST
def club_invite_revoke(request: HttpRequest, club_id: int, invitation_id: int):
    club, _member = club_for_admin(request, club_id)
    try:
        services.revoke_invitation(club, request.user, invitation_id)
    except LeagueError as error:
        refuse(request, error)
    else:
        messages.success(request, _("Invitation withdrawn."))
    return redirect("club_admin", club_id=club.pk)


@login_required
@require_POST
def club_member_action(request: HttpRequest, club_id: int, user_id: int, action: str):
    """Remove (after a confirmation page), restore or promote a member (no
    admin ever touches a member's password: issue #29)."""
    club, _member = club_for_admin(request, club_id)
    if action not in ("remove", "restore", "promote"):
        raise Http404("No such action.")
    try:
        if action == "remove":
            if request.POST.get("confirmed") != "yes":
                member = services.removal_check(club, request.user, user_id)
                context = {"club": club, "member": member}
                return render(request, "battles/league/remove.html", context)
            services.remove_member(club, request.user, user_id)
            messages.success(
                request, _("Member removed: their results stay; you can restore them.")
            )
        elif action == "restore":
            services.restore_member(club, request.user, user_id)
            messages.success(request, _("Member restored."))
        else:
            services.promote_admin(club, request.user, user_id)
            messages.success(request, _("Member promoted to admin."))
    except LeagueError as error:
        refuse(request, error)
    return redirect("club_admin", club_id=club.pk)


def _link_refused(request, template: str, error: LeagueError) -> HttpResponse:
    """A used, expired or withdrawn link: the page says why (410)."""
    return render(request, template, {"refusal": error.message}, status=410)


@no_referrer_page  # the URL holds the token (battles.views.csrf)
@require_http_methods(["GET", "POST"])
@never_cache
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation: sign in (or up), then join the club."""
    try:
        invitation = services.invitation_for(token)
    except LeagueError as error:
        return _link_refused(request, "battles/league/join.html", error)
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in first.")
        try:
            services.accept_invitation(token, request.user)
        except LeagueError as error:
            return _link_refused(request, "battles/league/join.html", error)
        messages.success(request, _("Welcome to the club."))
        return redirect("club", club_id=invitation.club_id)
    context = {"invitation": invitation, "next": request.path}
    return render(request, "battles/league/join.html", context)
