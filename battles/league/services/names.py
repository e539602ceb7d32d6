"""How the league's pages name a person (issue #29): her display name where
she chose one (``battles.models.accounts.AccountProfile``), else her login.
The league's computations keep the login (``rules.league`` keys players by
it); only what is shown changes."""

from __future__ import annotations

from collections.abc import Iterable

from battles.models.accounts import AccountProfile


def shown_names(user_ids: Iterable[int | None]) -> dict[int, str]:
    """Each of these members' display name, where she chose one (one query)."""
    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return {}
    return dict(
        AccountProfile.objects.filter(user_id__in=wanted)
        .exclude(display_name="")
        .values_list("user_id", "display_name")
    )
