"""The commands of the combat phase (IV-C, VII-C), each declared once, and
what follows its rolls.

They sit beside the parts of ``rules.game.combat``, whose functions check and apply
them; the declarations register themselves in ``rules.game.commands``, and
the end of a parry's roll and the odds of a six on an attack against a parry
in ``rules.game.follows``.
"""

from __future__ import annotations

from rules.game.combat.attacks import blow_lands_choice, declare_attack, legal_attack
from rules.game.combat.flow import legal_pursue, pursue
from rules.game.combat.forming import (
    choose_combat,
    form_combats,
    legal_choose_combat,
    legal_form_combats,
)
from rules.game.combat.initiative import initiative, legal_initiative
from rules.game.combat.parries import (
    ambidextrous,
    defence_finished,
    legal_ambidextrous,
    legal_parry,
    parry,
)
from rules.game.combat.placement import legal_place_dice, place_dice
from rules.game.commands import (
    MAX_ID,
    MAX_LIST,
    WOUND_MODIFIERS,
    CommandKind,
    Field,
    bool_field,
    choice_field,
    id_field,
    int_field,
)
from rules.game.follows import follows
from rules.melee import MAX_COMBAT_DICE

# A parry's roll ends in the combat (VII-C-4); a six on an attack against a
# committed parry shows the chance the blow lands.
follows("defence_finished")(defence_finished)
follows("blow_lands_choice")(blow_lands_choice)


class FormCombats(CommandKind):
    """IV-C: the Tactics winner splits the melees: "who faces whom"
    (``opponent:<fighter>`` = fighter), or, when no such field is sent, the
    split the app suggested."""

    type = "form_combats"
    section = "IV-C"
    fields = (
        Field(
            "choices",
            "map",
            required=False,
            max_items=MAX_LIST,
            max_length=MAX_ID,
            prefix="opponent:",
        ),
        choice_field("combats", ("suggested",), required=False),
    )
    legal = staticmethod(legal_form_combats)
    apply = staticmethod(form_combats)


class ChooseCombat(CommandKind):
    """IV-C: the Tactics winner picks the next combat to fight."""

    type = "choose_combat"
    section = "IV-C"
    fields = (int_field("combat", 0, 500),)
    legal = staticmethod(legal_choose_combat)
    apply = staticmethod(choose_combat)


class Initiative(CommandKind):
    """VII-C-2: the side names its fighter for the opposed Initiative test."""

    type = "initiative"
    section = "VII-C-2"
    fields = (id_field("fighter"),)
    legal = staticmethod(legal_initiative)
    apply = staticmethod(initiative)


class PlaceDice(CommandKind):
    """VII-C-1: a fighter's combat dice, ``attack`` of them in attack, the rest
    in defence; ``sequence``: the Enchaînement/X dice taken (-2 ATT, -2 DEF
    each, this combat only). A side's whole placement comes in one tap."""

    type = "place_dice"
    section = "VII-C-1"
    batched = True
    fields = (
        id_field("fighter"),
        int_field("attack", 0, MAX_COMBAT_DICE),
        int_field("sequence", 0, MAX_COMBAT_DICE, required=False, default=0),
        bool_field("war_fury"),
    )
    legal = staticmethod(legal_place_dice)
    apply = staticmethod(place_dice)


class Attack(CommandKind):
    """VII-C-3, VII-C-4: one attack die (two for Coup de maître/X)."""

    type = "attack"
    section = "VII-C-3"
    fields = (
        id_field("attacker"),
        id_field("target"),
        bool_field("master_strike"),
        *WOUND_MODIFIERS,
    )
    legal = staticmethod(legal_attack)
    apply = staticmethod(declare_attack)


class Parry(CommandKind):
    """VII-C-4: the target's side commits ``dice`` defence dice (0 takes the
    blow) before the attack test; ``counter`` for Contre-attaque."""

    type = "parry"
    section = "VII-C-4"
    fields = (int_field("dice", 0, MAX_COMBAT_DICE), bool_field("counter"))
    legal = staticmethod(legal_parry)
    apply = staticmethod(parry)


class Ambidextrous(CommandKind):
    """Ambidextre against an attack that failed: keep the defence dice
    committed, or ``swap`` them for an attack die used at once."""

    type = "ambidextrous"
    section = "VII-C-4"
    fields = (bool_field("swap"),)
    legal = staticmethod(legal_ambidextrous)
    apply = staticmethod(ambidextrous)


class Pursue(CommandKind):
    """VII-C-6: a fighter freed by a combat records the contact its pursuit
    move makes, joining a combat still to fight (or making a new one); listed
    to its side while the next combat is picked, whoever picks it."""

    type = "pursue"
    section = "VII-C-6"
    anytime = True
    fields = (id_field("fighter"), id_field("target"))
    legal = staticmethod(legal_pursue)
    apply = staticmethod(pursue)
