"""Sharing a game: join links for the opponent and for spectators.

DESIGN "Who may act" and "Join links": the creator holds side A; a link with
an unguessable token (``secrets.token_urlsafe(32)``, only its SHA-256 is
stored) lets the opponent claim side B once; a spectator link seats as many
watchers as follow it, read-only. Links expire (``settings.JOIN_LINK_DAYS``)
and the creator can withdraw or renew them. The token is shown only to the
creator's own session, which keeps it after making the link.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models.games import (
    Game,
    GameMode,
    GameSeat,
    JoinLink,
    JoinLinkRole,
    SeatRole,
)
from battles.models.identity import Owner


class JoinRefused(Exception):
    """A join link that cannot seat this person; the message is for them."""

    status = 410

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class LinkUnknown(JoinRefused):
    status = 404


class LinkWithdrawn(JoinRefused):
    status = 410


class LinkExpired(JoinRefused):
    status = 410


class SideTaken(JoinRefused):
    status = 409


@dataclass(frozen=True)
class ShareLink:
    """A usable link and its token (known only right after it is made)."""

    link: JoinLink
    token: str

    @property
    def role(self) -> str:
        return self.link.role


def make_join_link(game: Game, role: str) -> ShareLink:
    """A new link for ``role`` ("b" or "spectator"), valid JOIN_LINK_DAYS."""
    if role not in JoinLinkRole.values:
        raise ValueError(f"no join link for role {role!r}")
    token = secrets.token_urlsafe(32)
    link = JoinLink.objects.create(
        game=game,
        role=role,
        token_hash=JoinLink.hash_token(token),
        expires=timezone.now() + timedelta(days=settings.JOIN_LINK_DAYS),
    )
    return ShareLink(link=link, token=token)


def usable_links(game: Game, role: str):
    """The links of ``role`` someone could still follow."""
    links = JoinLink.objects.filter(
        game=game, role=role, revoked=False, expires__gt=timezone.now()
    )
    if role == JoinLinkRole.SIDE_B:
        links = links.filter(used__isnull=True)
    return links


def shareable_roles(game: Game) -> list[str]:
    """The roles a link can still give: side B while free, spectators always."""
    roles = []
    side_b_free = not game.seats.filter(role=SeatRole.SIDE_B).exists()
    if game.mode == GameMode.TWO_PHONES and side_b_free:
        roles.append(JoinLinkRole.SIDE_B.value)
    roles.append(JoinLinkRole.SPECTATOR.value)
    return roles


def open_share_links(game: Game, known_tokens: dict[str, str]) -> dict[str, ShareLink]:
    """The links to show the creator, by role.

    ``known_tokens`` are the tokens the creator's session holds. A role that
    never had a link gets its first one here; a role whose link was
    withdrawn, used or expired gets none (the creator renews it on purpose).
    """
    shown: dict[str, ShareLink] = {}
    with transaction.atomic():
        for role in shareable_roles(game):
            token = known_tokens.get(role)
            if token:
                link = (
                    usable_links(game, role)
                    .filter(token_hash=JoinLink.hash_token(token))
                    .first()
                )
                if link is not None:
                    shown[role] = ShareLink(link=link, token=token)
                    continue
            if not JoinLink.objects.filter(game=game, role=role).exists():
                shown[role] = make_join_link(game, role)
    return shown


def renew_join_link(game: Game, role: str) -> ShareLink:
    """Withdraw every usable link of ``role`` and make a fresh one."""
    with transaction.atomic():
        usable_links(game, role).update(revoked=True)
        return make_join_link(game, role)


def revoke_join_links(game: Game, role: str) -> int:
    """Withdraw every usable link of ``role``; seats already taken stay."""
    with transaction.atomic():
        return usable_links(game, role).update(revoked=True)


def _check_usable(link: JoinLink | None) -> JoinLink:
    if link is None:
        raise LinkUnknown(
            _("This link does not lead to any game. Ask for a new link or QR code.")
        )
    if link.revoked:
        raise LinkWithdrawn(
            _("The player who shared this link has withdrawn it. Ask for a new one.")
        )
    if link.expires <= timezone.now():
        raise LinkExpired(_("This link has expired. Ask for a new one."))
    if link.role == JoinLinkRole.SIDE_B and link.used is not None:
        raise SideTaken(
            _(
                "Side B of this game has already been claimed. "
                "Ask for a spectator link to watch it."
            )
        )
    return link


def join_link_for(token: str) -> JoinLink:
    """The link ``token`` opens, if it can still seat someone (else JoinRefused)."""
    link = (
        JoinLink.objects.filter(token_hash=JoinLink.hash_token(token))
        .select_related("game")
        .first()
    )
    return _check_usable(link)


def seats_of(game: Game, owner: Owner) -> list[GameSeat]:
    if not owner.is_anyone:
        return []
    seats = game.seats.all()
    return [
        seat
        for seat in seats
        if (owner.user_id is not None and seat.user_id == owner.user_id)
        or (owner.guest_key and seat.guest_key == owner.guest_key)
    ]


def claim_seat(token: str, owner: Owner, player_name: str = "") -> GameSeat:
    """Seat ``owner`` in the game the link opens, in one transaction.

    Side B is claimed once: of two phones claiming at the same moment exactly
    one wins (the link row is locked; the "side held once" constraint is the
    backstop); the other gets ``SideTaken``. Someone already seated in the
    role the link gives keeps that seat and the link stays unused.
    """
    if not owner.is_anyone:
        raise JoinRefused(_("Open the link in a browser that keeps cookies."))
    player_name = player_name.strip()[:60]
    with transaction.atomic():
        link = _check_usable(
            JoinLink.objects.select_for_update()
            .filter(token_hash=JoinLink.hash_token(token))
            .select_related("game")
            .first()
        )
        game = link.game
        held = {seat.role: seat for seat in seats_of(game, owner)}
        if link.role == JoinLinkRole.SPECTATOR:
            if held:  # a player or a spectator already: nothing to add
                return held.get("a") or held.get("b") or held["spectator"]
        elif link.role in held:
            return held[link.role]
        elif "a" in held:
            raise SideTaken(
                _("You already play side A of this game: pass the link on instead.")
            )
        holder = {"user_id": owner.user_id, "guest_key": owner.guest_key or ""}
        try:
            with transaction.atomic():
                seat = GameSeat.objects.create(
                    game=game, role=link.role, player_name=player_name, **holder
                )
        except IntegrityError:
            raise SideTaken(
                _(
                    "Side B of this game has already been claimed. "
                    "Ask for a spectator link to watch it."
                )
            ) from None
        if link.used is None:
            link.used = timezone.now()
            link.save(update_fields=["used"])
    return seat


__all__ = [
    "JoinRefused",
    "LinkExpired",
    "LinkUnknown",
    "LinkWithdrawn",
    "ShareLink",
    "SideTaken",
    "claim_seat",
    "join_link_for",
    "make_join_link",
    "open_share_links",
    "renew_join_link",
    "revoke_join_links",
    "seats_of",
    "shareable_roles",
]
