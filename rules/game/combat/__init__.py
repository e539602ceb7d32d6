"""The combat phase (IV-C, Conf'Fédé ch.7): combats, Initiative, placement,
exchanges, attacks and parries.

Chapter 7 is not among the seeds: ``../shared/rules-data/melee-sources.md``
gathers what public sources establish of it (S1..S15, each fact tagged
[read], [inferred], [conflict] or [fan]). What they establish is played as the
rule; what they leave open is a house ruling (``rules.melee.HOUSE_RULINGS``),
chosen at the game's creation and named in the events it decides
(``"house_ruling": name``).

The course of one combat (melee-sources.md §8):

1. The Tactics winner splits the melees (VII-A, IV-C); the sides take turns
   to pick the next combat, the Tactics winner first (VII-B, S4, S8).
2. Each fighter has 1 die plus 1 per opponent in that combat (VII-C-1, S8).
3. Initiative (VII-C-2, S8): each side names one of its fighters; their
   opposed INI test (II-A-3) decides which side places its dice last and
   attacks first.
4. Placement (VII-C-1, S8): the side that lost the Initiative places its
   fighters' dice first, in attack or defence, then the winner, who sees
   them (``placement_order``: or both before the Initiative). A fighter whose
   disengagement failed this turn places none in attack, in every combat of
   the phase (S3).
5. Exchanges (VII-C-3, S8): the sides take turns, one attack each, the
   Initiative winner's side first (B, A, B, A...; a side with no attack
   left lets the other go on alone); which side opens the later exchanges is
   the house ruling ``exchange_opener`` (the sources are silent); a fighter
   attacks each of its opponents at most once in an exchange; a fighter that
   holds an attack die and an opponent it has not yet attacked in this
   exchange must attack.
   The combat ends when no attack die can be used any more.
6. An attack (VII-C-4): the target's side commits 0 or more defence dice
   before the attack test (1d6 + current ATT, II-A-4: a final result of 0 or
   less fails); the defence test (the dice committed, one kept, II-A-2, +
   current DEF) parries when it reaches the attack's result; an attack not
   parried goes to the wound roll (II-B) with the attacker's FOR.

The package, in the order of its parts (each imports only those before it):
``under_way``, ``attacks``, ``parries``, ``placement``, ``initiative``,
``forming``, ``flow``. Each part declares its own commands beside the
functions that list and apply them.
"""

# The parts in their order: each imports only those before it (ruff keeps it).
# ruff: noqa: I001
from rules.game.combat.under_way import *  # noqa: F403
from rules.game.combat.attacks import *  # noqa: F403
from rules.game.combat.parries import *  # noqa: F403
from rules.game.combat.placement import *  # noqa: F403
from rules.game.combat.initiative import *  # noqa: F403
from rules.game.combat.forming import *  # noqa: F403
from rules.game.combat.flow import *  # noqa: F403
