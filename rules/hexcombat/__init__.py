"""The hex combat sheet ("Fiche Combat", seed 003) for unit battles on a hex map.

A product of its own beside the skirmish game: its names say "hex" or "fire"
where the skirmish modules have theirs (``HexSize`` is not ``rules.size.Size``;
the sheet's shots are "fire", ``rules.shooting`` is the skirmish game's).

Sections of the sheet, in its own words, one module each (everything is
imported here, so ``from rules.hexcombat import losses`` is the way in):

* "Table des Combats" (Jet 2D6 / Avantage => Nombre de Pertes), ``table``:
  ``COMBAT_TABLE``, ``losses``, ``column_for``, and the exact odds
  ``loss_odds``/``volley_odds``; the Procédure of "Action Combattre/Duel au
  Choc" and "Action Combattre au Tir": ``resolve`` (2D6 from a dice source,
  table read, a double costs the shooter one "Niveau de Munitions",
  ``ammunition_after``).
* "Calcul de l'Avantage au Choc", ``shock``: ``ShockSituation`` ->
  ``shock_advantage``.
* "Calcul de l'Avantage au Tir", ``fire``: ``FireSituation`` ->
  ``fire_advantage``, and ``plan_fire`` (which adds the cadence and range).
* "Cadence de Tir" and "Portée de Tir" (with "Harcèlement"),
  ``rate_and_range``: ``cadence``, ``fire_range``.
* "Application des Pertes", ``checklist``: ``LossState`` -> ``loss_checklist``.
* The sheet's words (its choices as enums, ``Modifier``, ``SheetItem``,
  ``Advantage``), ``words``; the lines both advantages print (weapon system,
  capacities, supports, size), ``lines``.

Choices where the sheet is silent or ambiguous (each one is tested):

* Reading the table: a column header is the LOWEST advantage of its band. An
  advantage between two printed headers reads the column to its left (the less
  favourable one for the attacker: +10 reads +9, -5 reads -7, -12 reads -16);
  below -16 reads -16, above +21 reads +21. On the negative side this makes the
  bands -2, -4..-3, -7..-5, -11..-8, -16..-12: widths 1, 2, 3, 4, 5, the regular
  progression the printed headers suggest. ``column_for`` says which column
  was read, and the app shows it.
* Weapon capacities ("Capacités du Profil d'Arme"): the sheet prints the same
  scale "■ +2 □ +1 □ 0 ○ -1 ● -2" for both sides. The attacker's (shooter's)
  capacity counts for the attacker; the defender's (target's) counts against
  him, so a superior defender is -2. The two "□" glyphs are the sheet's
  advantaged (+1) and ordinary (0); the names come from "Cadence de Tir" and
  "Portée de Tir": Supérieure, Avantagée, Ordinaire, Désavantagée, Inférieure.
* Every modifier line whose condition holds applies once: shock from rough
  into difficult terrain is -1 and -2.
* Shooting from "another position on the same hex" is +1 (the explicit line
  "+1 Tir par le Flanc ou autre Position sur le même Hex"); the "+0 ... ne pas
  tenir compte des Orientations" line is read as: no flank/rear from there.
* Range penalties: the line of sight crosses every hex from the adjacent one to
  the target's, so a target at distance d (adjacent = 1) costs archers and
  crossbowmen d - 1, and artillery one per full four, d // 4.
* Only the "Au Sol" position counts as "on the ground" for terrain penalties.
* A rough hex side between the units is an "Obstacle" for the charge bonus.

Pure Python: no Django, no I/O, no global random state; dice are passed in.
Labels are English, marked with ``rules.errors._`` (translated by the app);
``sheet_line`` quotes the sheet.
"""

from rules.hexcombat.checklist import (
    LOSSES_SECTION,
    LossState,
    loss_checklist,
    retreat_blockers,
)
from rules.hexcombat.fire import (
    FIRE_SECTION,
    FirePlan,
    FireSituation,
    fire_advantage,
    plan_fire,
    range_penalty,
)
from rules.hexcombat.lines import effective_capacity
from rules.hexcombat.rate_and_range import (
    CADENCE_SECTION,
    Cadence,
    FireRange,
    cadence,
    fire_range,
)
from rules.hexcombat.shock import (
    SHOCK_SECTION,
    ShockSituation,
    attack_is_supported,
    charge_bonus_applies,
    shock_advantage,
)
from rules.hexcombat.table import (
    ADVANTAGE_LIMIT,
    COLUMNS,
    COMBAT_TABLE,
    Resolution,
    Roll,
    ammunition_after,
    column_for,
    double_odds,
    loss_odds,
    losses,
    resolve,
    resolve_faces,
    volley_odds,
)
from rules.hexcombat.words import (
    Advantage,
    Altitude,
    Ammunition,
    Breath,
    CadenceChoice,
    Capacity,
    Direction,
    Formation,
    Height,
    HexSize,
    Modifier,
    Morale,
    MoraleProfile,
    Position,
    SheetItem,
    ShooterKind,
    StackedCharacter,
    Terrain,
    Visibility,
    Weather,
    Wind,
)

__all__ = [
    "ADVANTAGE_LIMIT",
    "CADENCE_SECTION",
    "COLUMNS",
    "COMBAT_TABLE",
    "FIRE_SECTION",
    "LOSSES_SECTION",
    "SHOCK_SECTION",
    "Advantage",
    "Altitude",
    "Ammunition",
    "Breath",
    "Cadence",
    "CadenceChoice",
    "Capacity",
    "Direction",
    "FirePlan",
    "FireRange",
    "FireSituation",
    "Formation",
    "Height",
    "HexSize",
    "LossState",
    "Modifier",
    "Morale",
    "MoraleProfile",
    "Position",
    "Resolution",
    "Roll",
    "SheetItem",
    "ShockSituation",
    "ShooterKind",
    "StackedCharacter",
    "Terrain",
    "Visibility",
    "Weather",
    "Wind",
    "ammunition_after",
    "attack_is_supported",
    "cadence",
    "charge_bonus_applies",
    "column_for",
    "double_odds",
    "effective_capacity",
    "fire_advantage",
    "fire_range",
    "loss_checklist",
    "loss_odds",
    "losses",
    "plan_fire",
    "range_penalty",
    "resolve",
    "resolve_faces",
    "retreat_blockers",
    "shock_advantage",
    "volley_odds",
]
