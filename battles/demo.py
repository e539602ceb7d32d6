"""The demo data set: peoples, a few attributed profiles, two ready armies.

From ``shared/rules-data/demo-profiles.md``. Confrontation's reference cards are
Rackham's: the five printed profiles are attributed "Profil Rackham"; the seven
generic stat lines (community "Conf'Arena" archetypes, not Rackham cards) are
labelled "archétype". Everything here has ``is_demo=True`` and no owner.

Archetypes are generic, but a card belongs to one people (the Tactics roll,
IV-A-2, needs fighters "of the army's people"), so each people gets its own
copy of the seven archetypes: an archetype fits any army without being an ally.

Costs ("PA"): the source prints one only for the Guerrier de Pierre (40).
Every other demo card carries an estimate so that an army's total means
something, flagged ``cost_estimated`` (shown "estimated" on every page). The
estimates weigh a card against the Guerrier de Pierre's 40 points: about 2
points a point of ATT+FOR+DEF+RES above a human line, more for a shooter, a
magician or a faithful, more for a large fighter.

The demo shooters carry a weapon: the Magistrat's pistol is printed; the
archetypes' weapons (a crossbow for the Tireur, a light crossbow for the
Guerrier-tireur) are archetype weapons, named "(arme d'archétype)".

The Wolfen d'Yllia's copies of the archetypes are wolfen-like (large, MOU 15,
fear instead of courage, the Repenti's strength), not human lines. No source
prints them: they are labelled "profil wolfen estimé". Values the source does
not give (the Magistrat's FOI) stay empty.

A demo army never holds the same card twice: one row a card, its fighters in
the count.

Each demo army has a character ("Personnage guerrier": Enchaînement/1, Coup
de maître/1, Contre-attaque, estimated profiles) so that the melee's
abilities can be played, and the wolfen one's PEUR 7 makes a fear test the
Griffons can fail.

``load_demo()`` is idempotent: a second run changes nothing.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from battles.files.army_json import card_profile
from battles.models.armies import (
    Army,
    ArmyCard,
    BaseShape,
    CardSource,
    MysticRank,
    People,
    Rank,
    ReferenceCard,
    Size,
    Voie,
)
from battles.services.armies import _set_abilities

__all__ = [
    "ARCHETYPES",
    "CHARACTERS",
    "CHARACTER",
    "DEMO_ARMIES",
    "PEOPLES",
    "PRINTED_CARDS",
    "WOLFEN_ARCHETYPES",
    "archetypes_of",
    "load_demo",
]

PEOPLES: dict[str, list[str]] = {
    Voie.LUMIERE: [
        "Lions d'Alahan",
        "Elfes Cynwäll",
        "Griffons d'Akkylannie",
        "Keltois Sessairs",
        "Nains de Tir-Na-Bor",
        "Utopie du Sphinx",
    ],
    Voie.DESTIN: [
        "Elfes Daïkinees",
        "Orques de Bran-Ô-Kor",
        "Wolfen d'Yllia",
        "Gobelins de No-Dan-Kar",
        "Orques du Béhémoth",
        "Concorde de l'Aigle",
    ],
    Voie.TENEBRES: [
        "Morts-vivants d'Achéron",
        "Alchimistes de Dirz",
        "Keltois Drunes",
        "Nains de Mid-Nor",
        "Alliance Ophidienne",
        "Elfes Akkyshans",
        "Dévoreurs de Vile-Tis",
        "Horde de Dun-Scaïth",
    ],
    Voie.OTHER: ["Cadwallon", "Élémentaires", "Mercenaires"],
}

_EMPTY = dict.fromkeys(
    ("mou", "ini", "att", "force", "defense", "res", "tir", "cou", "peur"), None
) | dict.fromkeys(("dis", "pou", "foi"), None)


def _stats(mou, ini, att, force, defense, res, tir, cou, peur, dis, pou, foi) -> dict:
    return {
        "mou": None if mou is None else Decimal(str(mou)),
        "ini": ini,
        "att": att,
        "force": force,
        "defense": defense,
        "res": res,
        "tir": tir,
        "cou": cou,
        "peur": peur,
        "dis": dis,
        "pou": pou,
        "foi": foi,
    }


def _estimated(cost: int) -> dict:
    """A cost no source prints: an estimate, labelled so."""
    return {"cost": cost, "cost_estimated": True}


def _weapon(name: str, strength: int, ranges: tuple[int, int, int]) -> dict:
    """An archetype's ranged weapon, named as such."""
    return {
        "weapon_name": f"{name} (arme d'archétype)",
        "weapon_strength": strength,
        "range_short": ranges[0],
        "range_medium": ranges[1],
        "range_long": ranges[2],
    }


CROSSBOW = _weapon("Arbalète", 6, (15, 30, 45))
LIGHT_CROSSBOW = _weapon("Arbalète légère", 5, (10, 20, 30))
WOLFEN_BOW = _weapon("Arc wolfen", 7, (15, 30, 45))
WOLFEN_JAVELIN = _weapon("Javelots", 6, (10, 15, 20))

# name, people, fields, abilities ("Profil Rackham").
PRINTED_CARDS: list[tuple[str, str, dict, list[str]]] = [
    (
        "Repenti wolfen",
        "Wolfen d'Yllia",
        {
            **_stats(15, 4, 4, 7, 4, 6, None, None, 6, 1, None, None),
            "rank": Rank.IRREGULIER,
            "size": Size.LARGE,
            "fighters_per_card": 3,
            **_estimated(28),
        },
        ["Tueur né/1", "Créature", "Paria"],
    ),
    (
        "Magistrat du Griffon",
        "Griffons d'Akkylannie",
        {
            **_stats(10, 3, 3, 6, 4, 5, 3, 5, None, 6, None, None),
            "rank": Rank.REGULIER,
            "mystic_rank": MysticRank.DEVOT,
            "size": Size.NORMAL,
            "weapon_name": "Pistolet",
            "weapon_strength": 6,
            "range_short": 10,
            "range_medium": 15,
            "range_long": 20,
            **_estimated(30),
        },
        [],
    ),
    (
        "Clone de Dirz (hache)",
        "Alchimistes de Dirz",
        {
            **_stats(10, 2, 3, 4, 2, 5, None, 2, None, 3, None, None),
            "rank": Rank.REGULIER,
            "size": Size.NORMAL,
            "fighters_per_card": 3,
            **_estimated(10),
        },
        [],
    ),
    (
        "Seigneur des Carnages",
        "Dévoreurs de Vile-Tis",
        {
            **_stats(12.5, 4, 5, 6, 5, 7, None, 6, None, 2, 2, None),
            "rank": Rank.REGULIER,
            "mystic_rank": MysticRank.INITIE,
            **_estimated(45),
        },
        ["Ambidextre", "Éclaireur", "Guerrier-mage"],
    ),
    (
        "Guerrier de Pierre",
        "Orques du Béhémoth",
        {
            **_stats(12.5, 3, 5, 9, 5, 9, None, 5, None, 3, None, None),
            "rank": Rank.ELITE,
            "size": Size.NORMAL,
            "cost": 40,
        },
        ["Bravoure", "Brute épaisse", "Endurance"],
    ),
]

# Which archetypes are mystics, and of which rank.
_ARCHETYPE_MYSTIC_RANKS = {
    "Magicien": MysticRank.INITIE,
    "Fidèle": MysticRank.DEVOT,
    "Guerrier-mage": MysticRank.INITIE,
    "Moine-guerrier": MysticRank.DEVOT,
}


def _archetypes(
    lines: dict[str, tuple[dict, int]],
    weapons: dict[str, dict],
    body: dict | None = None,
) -> dict[str, dict]:
    """Archetype cards from ``name -> (stats, estimated cost)``.

    Each card gets the ``body`` fields, its mystic rank if it has one, its
    estimated cost and its archetype weapon from ``weapons`` if any.
    """
    cards = {}
    for name, (stats, cost) in lines.items():
        card = {**stats, **(body or {})}
        if name in _ARCHETYPE_MYSTIC_RANKS:
            card["mystic_rank"] = _ARCHETYPE_MYSTIC_RANKS[name]
        cards[name] = {**card, **_estimated(cost), **weapons.get(name, {})}
    return cards


# name -> fields ("archétype"; one copy per people). Stat lines from the
# source; costs estimated, weapons archetype weapons.
ARCHETYPES: dict[str, dict] = _archetypes(
    {
        "Guerrier": (_stats(10, 4, 5, 7, 5, 7, None, 5, None, 4, None, None), 20),
        "Tireur": (_stats(10, 4, 3, 5, 3, 6, 4, 5, None, 4, None, None), 18),
        "Magicien": (_stats(10, 4, 3, 5, 3, 6, None, 5, None, 4, 4, None), 25),
        "Fidèle": (_stats(10, 4, 3, 5, 3, 6, None, 5, None, 4, None, 4), 25),
        "Guerrier-tireur": (_stats(10, 4, 4, 6, 4, 6, 3, 5, None, 4, None, None), 20),
        "Guerrier-mage": (_stats(10, 4, 4, 6, 4, 6, None, 5, None, 4, 3, None), 24),
        "Moine-guerrier": (_stats(10, 4, 4, 6, 4, 6, None, 5, None, 4, None, 3), 24),
    },
    weapons={"Tireur": CROSSBOW, "Guerrier-tireur": LIGHT_CROSSBOW},
)

# The Wolfen d'Yllia's archetypes: wolfen-like lines after the Repenti wolfen
# (large, MOU 15, FOR 7, fear 6, low discipline), estimated, labelled so.
WOLFEN = "Wolfen d'Yllia"
WOLFEN_ESTIMATE = "profil wolfen estimé"
_WOLFEN_BODY = {"size": Size.LARGE}
WOLFEN_ARCHETYPES: dict[str, dict] = _archetypes(
    {
        "Guerrier": (_stats(15, 4, 5, 8, 4, 7, None, None, 6, 2, None, None), 35),
        "Tireur": (_stats(15, 4, 3, 6, 3, 6, 4, None, 5, 2, None, None), 32),
        "Magicien": (_stats(15, 4, 3, 6, 3, 6, None, None, 5, 3, 4, None), 38),
        "Fidèle": (_stats(15, 4, 3, 6, 3, 6, None, None, 5, 3, None, 4), 38),
        "Guerrier-tireur": (_stats(15, 4, 4, 7, 4, 6, 3, None, 6, 2, None, None), 34),
        "Guerrier-mage": (_stats(15, 4, 4, 7, 4, 6, None, None, 6, 2, 3, None), 40),
        "Moine-guerrier": (_stats(15, 4, 4, 7, 4, 6, None, None, 6, 2, None, 3), 40),
    },
    weapons={"Tireur": WOLFEN_BOW, "Guerrier-tireur": WOLFEN_JAVELIN},
    body=_WOLFEN_BODY,
)


# A character on each demo side, to show the melee's abilities and fear
# (issue 31): no source prints a demo character, so both are estimates,
# labelled so. Characters have Enchaînement, Coup de maître and
# Contre-attaque built in (melee-sources.md §4 [read], S5 and S11); the
# wolfen one's PEUR 7 can rout a Griffon of COU 5 (1d6 + 5 fails against 7 on
# a natural 1: IX, 1 chance in 6), where the wolfen's PEUR 6 never can.
CHARACTER = "Personnage guerrier"
CHARACTER_ESTIMATE = "profil de personnage estimé"
CHARACTER_ABILITIES = ["Enchaînement/1", "Coup de maître/1", "Contre-attaque"]
CHARACTERS: dict[str, dict] = {
    "Griffons d'Akkylannie": {
        **_stats(10, 5, 6, 7, 6, 7, None, 6, None, 5, None, None),
        "source_detail": CHARACTER_ESTIMATE,
        **_estimated(45),
    },
    WOLFEN: {
        **_stats(15, 5, 6, 8, 5, 7, None, None, 7, 3, None, None),
        **_WOLFEN_BODY,
        "source_detail": WOLFEN_ESTIMATE,
        **_estimated(55),
    },
}


def archetypes_of(people_name: str) -> dict[str, dict]:
    """The archetype cards of a people: wolfen-like for the Wolfen."""
    if people_name == WOLFEN:
        return {
            name: {**fields, "source_detail": WOLFEN_ESTIMATE}
            for name, fields in WOLFEN_ARCHETYPES.items()
        }
    return ARCHETYPES


# army name -> (people, points limit, [(card name, fighters)]).
DEMO_ARMIES: dict[str, tuple[str, int, list[tuple[str, int]]]] = {
    "Griffons d'Akkylannie (démo)": (
        "Griffons d'Akkylannie",
        400,
        [
            ("Magistrat du Griffon", 1),
            ("Guerrier", 4),
            ("Tireur", 3),
            ("Fidèle", 1),
            ("Moine-guerrier", 2),
            ("Guerrier-tireur", 2),
            ("Guerrier-mage", 1),
            (CHARACTER, 1),
        ],
    ),
    "Wolfen d'Yllia (démo)": (
        "Wolfen d'Yllia",
        400,
        [
            ("Repenti wolfen", 3),
            ("Guerrier", 2),
            ("Guerrier-mage", 1),
            ("Tireur", 2),
            ("Magicien", 1),
            ("Guerrier-tireur", 1),
            (CHARACTER, 1),
        ],
    ),
}


def _card_defaults(source: str, fields: dict) -> dict:
    return {
        "rank": "",
        "mystic_rank": "",
        "size": Size.NORMAL,
        "base_shape": BaseShape.SQUARE,
        "cost": None,
        "cost_estimated": False,
        "mou_flight": None,
        "creation": None,
        "alteration": None,
        "destruction": None,
        "weapon_name": "",
        "weapon_strength": None,
        "range_short": None,
        "range_medium": None,
        "range_long": None,
        "fighters_per_card": 1,
        **_EMPTY,
        "source_detail": "",
        **fields,
        "source": source,
        "is_demo": True,
    }


def _put_card(
    existing: dict[tuple[int, str], ReferenceCard],
    people: People,
    name: str,
    source: str,
    fields: dict,
    abilities: list[str],
) -> tuple[ReferenceCard, bool]:
    """The shared demo card, created or brought back to the demo profile.
    Returns (card, changed). ``existing`` holds the library's cards, loaded
    once with their abilities."""
    defaults = _card_defaults(source, fields)
    card = existing.get((people.pk, name))
    if card is None:
        card = ReferenceCard(people=people, name=name, **defaults)
        card.full_clean(validate_constraints=False, validate_unique=False)
        card.save()
        _set_abilities(card, [_split(text) for text in abilities])
        return card, True
    before = card_profile(card)
    was_demo = card.is_demo
    for key, value in defaults.items():
        setattr(card, key, value)
    if before == card_profile(card, abilities) and was_demo:
        return card, False
    card.full_clean(validate_constraints=False, validate_unique=False)
    card.save()
    _set_abilities(card, [_split(text) for text in abilities])
    return card, True


def _split(text: str) -> tuple[str, str]:
    name, _sep, value = text.partition("/")
    return name, value


@transaction.atomic
def load_demo() -> dict[str, int]:
    """Create or refresh the demo data; returns how many rows it changed."""
    changed = {"peoples": 0, "cards": 0, "armies": 0}
    peoples: dict[str, People] = {}
    for voie, names in PEOPLES.items():
        for name in names:
            people, created = People.objects.shared().get_or_create(
                name=name, defaults={"voie": voie}
            )
            if not created and people.voie != voie:
                people.voie = voie
                people.save(update_fields=["voie"])
                created = True
            changed["peoples"] += created
            peoples[name] = people
    cards: dict[tuple[str, str], ReferenceCard] = {}
    existing = {
        (card.people_id, card.name): card
        for card in ReferenceCard.objects.shared()
        .select_related("people")
        .prefetch_related("abilities")
    }
    for name, people_name, fields, abilities in PRINTED_CARDS:
        card, was_changed = _put_card(
            existing, peoples[people_name], name, CardSource.RACKHAM, fields, abilities
        )
        cards[(people_name, name)] = card
        changed["cards"] += was_changed
    for people_name, people in peoples.items():
        for name, fields in archetypes_of(people_name).items():
            card, was_changed = _put_card(
                existing, people, name, CardSource.ARCHETYPE, fields, []
            )
            cards[(people_name, name)] = card
            changed["cards"] += was_changed
    for people_name, fields in CHARACTERS.items():
        card, was_changed = _put_card(
            existing,
            peoples[people_name],
            CHARACTER,
            CardSource.ARCHETYPE,
            fields,
            CHARACTER_ABILITIES,
        )
        cards[(people_name, CHARACTER)] = card
        changed["cards"] += was_changed
    for army_name, (people_name, points_limit, entries) in DEMO_ARMIES.items():
        changed["armies"] += _put_army(
            army_name, peoples[people_name], points_limit, entries, cards
        )
    return changed


def _put_army(name, people, points_limit, entries, cards) -> bool:
    army, created = Army.objects.demo().get_or_create(
        name=name,
        defaults={"people": people, "points_limit": points_limit, "is_demo": True},
    )
    wanted = [
        (cards[(people.name, card_name)].pk, fighters, position)
        for position, (card_name, fighters) in enumerate(entries)
    ]
    current = list(
        army.cards.order_by("position", "id").values_list(
            "card_id", "fighters", "position"
        )
    )
    changed = created
    if army.people_id != people.pk or army.points_limit != points_limit:
        army.people, army.points_limit = people, points_limit
        army.save(update_fields=["people", "points_limit", "updated"])
        changed = True
    if current != wanted:
        army.cards.all().delete()
        ArmyCard.objects.bulk_create(
            ArmyCard(army=army, card_id=card_id, fighters=fighters, position=position)
            for card_id, fighters, position in wanted
        )
        changed = True
    return changed
