"""Agreement on results between the two phones (Game.require_confirmation).

After an action by side X whose events include a wound rolled on a fighter of
side Y, side Y's phone shows "Confirm / Dispute". A dispute marks that
action's events ``disputed`` (the log shows it); nothing is rolled back: the
players settle it at the table, and undo stays available to whoever acted.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from battles.models.agreement import ResultAgreement, Verdict
from battles.models.games import Game, GameEvent, GameMode
from battles.services.games import GameError
from rules.game import undone_actions

CONSEQUENTIAL_KINDS = ("wound_rolled",)


def _fighter_side(game: Game, fighter: str) -> str | None:
    data = (game.state.get("fighters") or {}).get(fighter) or {}
    return data.get("side") or (fighter[:1] if fighter[:1] in ("a", "b") else None)


def _undone(game: Game) -> set[int]:
    """The actions the log's undos reverted (kinds and actions only, cheap)."""
    rows = list(game.events.order_by("seq").values_list("seq", "action", "kind"))
    targets = dict(
        game.events.filter(kind="undone").values_list("seq", "payload__action")
    )
    events = [
        {"action": action, "kind": kind, "payload": {"action": targets.get(seq)}}
        for seq, action, kind in rows
    ]
    return undone_actions(events)


def pending_confirmation(game: Game, side: str) -> list[GameEvent]:
    """The results ``side``'s phone has still to confirm or dispute, oldest first.

    Empty unless the game asks for confirmation and is played on two phones.
    """
    if not game.require_confirmation or game.mode == GameMode.ONE_PHONE:
        return []
    if side not in ("a", "b"):
        return []
    candidates = [
        event
        for event in game.events.filter(kind__in=CONSEQUENTIAL_KINDS)
        .exclude(side=side)
        .exclude(side="")
        .order_by("seq")
        if _fighter_side(game, str(event.payload.get("target", ""))) == side
    ]
    if not candidates:
        return []
    answered = set(
        ResultAgreement.objects.filter(game=game, side=side).values_list(
            "action", flat=True
        )
    )
    candidates = [event for event in candidates if event.action not in answered]
    if not candidates:
        return []
    undone = _undone(game)
    return [event for event in candidates if event.action not in undone]


def _answer(game: Game, side: str, action: int, verdict: str) -> ResultAgreement:
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        waiting = {event.action for event in pending_confirmation(locked, side)}
        if action not in waiting:
            raise GameError(_("This result is not waiting for your answer."))
        try:
            with transaction.atomic():
                answer = ResultAgreement.objects.create(
                    game=locked, action=action, side=side, verdict=verdict
                )
        except IntegrityError:  # a double tap: the first answer stands
            raise GameError(_("You have already answered about this result.")) from None
        if verdict == Verdict.DISPUTED:
            GameEvent.objects.filter(game=locked, action=action).update(disputed=True)
    return answer


def confirm_result(game: Game, side: str, action: int) -> ResultAgreement:
    """``side`` agrees with the result of ``action`` (one transaction)."""
    return _answer(game, side, action, Verdict.CONFIRMED)


def dispute_result(game: Game, side: str, action: int) -> ResultAgreement:
    """``side`` disputes ``action``: its events are marked ``disputed``."""
    return _answer(game, side, action, Verdict.DISPUTED)


__all__ = ["confirm_result", "dispute_result", "pending_confirmation"]
