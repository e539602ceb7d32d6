"""The league's peoples come from the app's list, not free text (issue 24).

The list: the game's 23 peoples (``battles.files.people_names``) and the
library's other shared peoples. A result's people is stored under the app's
name (``canonical``), so "griffons d'akkylannie" and "Griffons d'Akkylannie"
are one faction in the statistics; ``map_league_peoples`` does the same for
the entries typed before (run once by migration 0010, and by the command
``manage.py map_league_peoples`` after new peoples are imported).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction

from battles.files.people_names import PEOPLE_NAMES, canonical_people
from battles.league.models.league import LeagueResult
from battles.league.models.tournament import TournamentPlayer
from battles.models.armies import People


def _shared_names() -> list[str]:
    return list(People.objects.shared().values_list("name", flat=True))


def league_peoples() -> list[str]:
    """The app's peoples, by name: the choices of every league form."""
    names = {canonical_people(name) for name in _shared_names()} | set(PEOPLE_NAMES)
    return sorted(names, key=str.casefold)


def canonical(name: str) -> str:
    """The app's name for ``name`` ("" stays ""; an unknown name is kept)."""
    return canonical_people(name, _shared_names())


def namer():
    """``canonical`` with the library read once (for a loop over many names)."""
    known = _shared_names()
    return lambda name: canonical_people(name, known)


@dataclass
class Mapping:
    """What ``map_league_peoples`` did: entries renamed, names left unknown."""

    renamed: Counter = field(default_factory=Counter)  # (old, new) -> entries
    unknown: Counter = field(default_factory=Counter)  # name -> entries


def map_league_peoples(*, dry_run: bool = False) -> Mapping:
    """Rename every free-text people of the results and tournament players to
    the app's name (case, accents and the English names do not matter)."""
    known = _shared_names()
    listed = set(league_peoples())
    mapping = Mapping()
    with transaction.atomic():
        targets = [
            (LeagueResult, "people_a"),
            (LeagueResult, "people_b"),
            (TournamentPlayer, "people"),
        ]
        for model, column in targets:
            values = Counter(
                model.objects.exclude(**{column: ""}).values_list(column, flat=True)
            )
            for old, count in values.items():
                new = canonical_people(old, known)
                if new not in listed:
                    mapping.unknown[old] += count
                if new != old:
                    mapping.renamed[(old, new)] += count
                    if not dry_run:
                        model.objects.filter(**{column: old}).update(**{column: new})
    return mapping


__all__ = ["canonical", "league_peoples", "map_league_peoples", "namer"]
