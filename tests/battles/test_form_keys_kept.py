"""A creating form's claimed key is kept ``KEPT_DAYS`` (issue 30's table does
not grow with every form ever sent): within that time the same form sent
again makes nothing new; older claims are deleted as a new one is made."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from battles.models import FormSubmission, Game
from battles.services.once import KEPT_DAYS
from tests.support.cast import phone_of
from tests.support.live import new_game_form

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _aged(days: float) -> None:
    """Every claim made so far dated ``days`` ago."""
    FormSubmission.objects.update(created=timezone.now() - timedelta(days=days))


def test_old_claims_go_as_a_new_one_is_made_and_recent_ones_still_answer(
    client, demo_armies
):
    army_a, army_b = demo_armies
    phone = phone_of("keys-guest", client)
    data = new_game_form(army_a, army_b)
    assert phone.post("/games/new/", {**data, "tap_key": "old"}).status_code == 302
    _aged(KEPT_DAYS + 1)
    assert phone.post("/games/new/", {**data, "tap_key": "recent"}).status_code == 302
    claim = FormSubmission.objects.get()  # the old claim is gone, not the new
    game = Game.objects.get(pk=claim.object_id)
    _aged(KEPT_DAYS - 1)
    games = Game.objects.count()
    # Sent again within the time kept: the same game, nothing new.
    again = phone.post("/games/new/", {**data, "tap_key": "recent"})
    assert again.status_code == 302
    assert again["Location"].endswith(f"/games/{game.public_id}/")
    assert Game.objects.count() == games
    assert FormSubmission.objects.filter(pk=claim.pk).exists()
