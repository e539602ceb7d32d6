"""What to do with the losses: "Application des Pertes" (seed 003).

``LossState`` says what the section needs to know about the attacked hex;
``loss_checklist`` lists the items that apply, in the sheet's order, and
``retreat_blockers`` the retreat conditions that fail.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import _
from rules.hexcombat._numbers import checked_count
from rules.hexcombat.words import MoraleProfile, SheetItem

LOSSES_SECTION = "Application des Pertes"


@dataclass(frozen=True)
class LossState:
    """What "Application des Pertes" needs to know about the attacked hex."""

    losses: int
    shock: bool = True  # False for a shot
    routed: bool = False
    charge_marker: bool = False
    contact_marker: bool = False
    morale_profile: MoraleProfile = MoraleProfile.ORDINARY
    formation: bool = False
    shaken: bool = False
    engaged_flank_or_rear: bool = False
    rear_zone_safe: bool = True
    steps_left: int | None = None  # steps of the attacked stack, if known
    attack_supported: bool = True
    attacker_charging: bool = False


def retreat_blockers(state: LossState) -> tuple[SheetItem, ...]:
    """The retreat conditions that fail ("Le Recul ... est autorisé si")."""
    blockers = []
    if state.routed:
        blockers.append(
            SheetItem(
                "retreat_routed",
                _("The attacked unit is routed"),
                "L'Unité attaquée n'est pas en Déroute",
            )
        )
    if state.charge_marker:
        blockers.append(
            SheetItem(
                "retreat_charge_marker",
                _("The attacked unit has a charge marker"),
                "L'Unité attaquée n'a pas de Marqueur Charge",
            )
        )
    if MoraleProfile(state.morale_profile) == MoraleProfile.UNSHAKEABLE:
        blockers.append(
            SheetItem(
                "retreat_unshakeable",
                _("The attacked unit has an unshakeable morale profile"),
                "L'Unité attaquée n'est pas un Profil de Moral Inébranlable",
            )
        )
    if state.engaged_flank_or_rear:
        blockers.append(
            SheetItem(
                "retreat_engaged",
                _("The attacked unit (and its stack) is engaged on the flank or rear"),
                "L'Unité (et sa pile) attaquée n'est pas Engagée par le Flanc ou "
                "l'Arrière par une Unité ennemie",
            )
        )
    if (
        state.formation
        and state.shaken
        and MoraleProfile(state.morale_profile) != MoraleProfile.DEMONIC
    ):
        blockers.append(
            SheetItem(
                "retreat_shaken_formation",
                _("A shaken formation cannot retreat (unless its morale is demonic)"),
                "L'Unité n'est pas une Formation Ebranlée (exception : son Moral est "
                "Démoniaque)",
            )
        )
    if not state.rear_zone_safe:
        blockers.append(
            SheetItem(
                "retreat_rear_zone",
                _("No hex of its rear zone is free of flank or rear engagement"),
                "Sur un des Hex de sa Zone Arrière (Formations : deux Hex contigus), "
                "l'Unité attaquée ne sera Engagée ni par le Flanc ni par l'Arrière",
            )
        )
    return tuple(blockers)


def loss_checklist(state: LossState) -> tuple[SheetItem, ...]:
    """The "Application des Pertes" items that apply, in order, for ``state``."""
    count = checked_count(state.losses, "Losses")
    if count == 0:
        return (
            SheetItem(
                "no_loss",
                _("No loss: nothing to apply"),
                "Si au moins une Perte est obtenue, appliquer ces Pertes",
            ),
        )
    items: list[SheetItem] = [
        SheetItem(
            "one_by_one",
            _("Apply the losses one by one on the attacked unit"),
            "Si au moins une Perte est obtenue, appliquer ces Pertes, une par une",
            count,
        )
    ]
    steps_left = state.steps_left
    if steps_left is not None:
        steps_left = checked_count(steps_left, "Steps left")
    if count > 1:
        items.append(
            SheetItem(
                "steps_before_last",
                _(
                    "Before the last loss: one step lost per loss result (if the unit "
                    "is destroyed, on the units stacked with it, defender's choice)"
                ),
                "Sinon 1 Pas de Perte est pris sur l'Unité attaquée et si celle-ci "
                "est Détruite, sur les Unités Empilées avec elle",
                count - 1,
            )
        )
    blockers = retreat_blockers(state)
    destroyed = steps_left is not None and (
        steps_left < count or (steps_left == count and bool(blockers))
    )
    forced = False
    if steps_left is not None and steps_left < count:
        pass  # destroyed before the last loss result: no retreat to decide
    elif blockers:
        items.append(
            SheetItem(
                "retreat_not_allowed",
                _("Last loss: retreat not allowed, one step lost"),
                "Le Recul de toutes les Unités situées dans l'Hex attaqué est "
                "autorisé si : ...",
            )
        )
        items += blockers
    else:
        forced = steps_left is not None and steps_left == count
        items.append(
            SheetItem(
                "retreat_forced" if forced else "retreat_allowed",
                _(
                    "Last loss: the stack must retreat, it is the only way to avoid "
                    "destruction"
                )
                if forced
                else _("Last loss: the stack may retreat instead of losing a step"),
                "Obligation de Reculer si : l'Unité peut Reculer ET c'est le seul "
                "moyen d'éviter la Destruction"
                if forced
                else "Il s'agit du dernier Résultat de Perte",
            )
        )
        items += _retreat_procedure(state)
    if state.charge_marker:
        items.append(
            SheetItem(
                "loss_charge_marker",
                _(
                    "A unit with a charge marker that takes a loss loses the marker "
                    "and takes a breath level"
                ),
                "Si une Unité avec Marqueur Charge prend une Perte, elle perd son "
                "Marqueur Charge et prend un Niveau d'Essoufflement",
            )
        )
    if destroyed:
        items.append(
            SheetItem(
                "destroyed",
                _("The attacked stack is destroyed: any remaining losses are ignored"),
                "Si toutes les Unités de l'Hex attaqué ont été Détruites et qu'il "
                "reste des Résultats de Perte, ceux-ci sont ignorés",
            )
        )
    elif blockers or forced:
        items.append(
            SheetItem(
                "morale_test",
                _("Morale test, dice modifier = the number of steps lost"),
                "Test de Moral avec comme Modificateur de Dés : le nombre de Pas "
                "perdus",
                count if blockers else count - 1,
            )
        )
    else:
        items.append(
            SheetItem(
                "morale_test_choice",
                _(
                    "Morale test, dice modifier = the number of steps lost: this "
                    "many without a retreat, one fewer if the stack retreats"
                ),
                "Test de Moral avec comme Modificateur de Dés : le nombre de Pas "
                "perdus",
                count,
            )
        )
    items += _whatever_the_absorption(state)
    return tuple(items)


def _retreat_procedure(state: LossState) -> list[SheetItem]:
    items = [
        SheetItem(
            "retreat_move",
            _(
                "Every unit of the attacked stack moves one hex away from the "
                "attacker or changes position; those that cannot stay and the stack "
                "loses one step"
            ),
            "Toutes les Unités de la pile Attaquée doivent s'éloigner de l'Entité "
            "attaquante d'un Hex ou en changeant de Position",
        ),
        SheetItem(
            "retreat_where",
            _(
                "Not onto a hex or position where movement is forbidden; units may "
                "retreat to different hexes; after the retreat, not engaged on the "
                "flank or rear"
            ),
            "Une Unité ne peut Reculer sur un Hex/Position pour lequel le Mouvement "
            "est interdit",
        ),
    ]
    if state.formation:
        items.append(
            SheetItem(
                "retreat_pivot",
                _("A formation that can pivot instead of retreating must pivot"),
                "Si une Formation peut Pivoter plutôt que reculer avec ces deux Hex, "
                "elle doit Pivoter",
            )
        )
    profile = MoraleProfile(state.morale_profile)
    if profile == MoraleProfile.MAGIC or (
        profile == MoraleProfile.DEMONIC and state.shaken
    ):
        items.append(
            SheetItem(
                "retreat_no_cohesion_loss",
                _("No cohesion level lost (magic morale, or shaken demonic morale)"),
                "exception : Unités de Profil de Moral Magique, Unité de Moral "
                "Démoniaque Ebranlée",
            )
        )
    else:
        items.append(
            SheetItem(
                "retreat_cohesion",
                _("Each unit of the attacked hex loses one cohesion level"),
                "Chaque Unité de l'Hex attaqué perd d'un Niveau de Cohésion",
            )
        )
    return items


def _whatever_the_absorption(state: LossState) -> list[SheetItem]:
    items = []
    if state.charge_marker:
        items.append(
            SheetItem(
                "defender_charge_marker",
                _(
                    "Defender's charge marker: remove it, or turn it to its Contact "
                    "side if still adjacent to an enemy; the unit takes a breath level"
                ),
                "Retirer le Marqueur Charge ou le retourner sur sa face Contact si "
                "l'Unité est toujours Adjacente à une Unité ennemie",
            )
        )
    if state.contact_marker:
        items.append(
            SheetItem(
                "defender_contact_marker",
                _(
                    "Defender's contact marker: remove it if no longer adjacent to an "
                    "enemy"
                ),
                "Pour chaque Unité Défenseur/Cible qui possède un Marqueur Contact, "
                "le retirer si l'Unité n'est plus Adjacente à une Unité ennemie",
            )
        )
    if state.shock and state.attack_supported:
        items.append(
            SheetItem(
                "advance",
                _(
                    "If the attacked hex is free, the attacker and its stacked "
                    "characters must advance into it (not onto close flight if it "
                    "cannot fly, not onto the ground from close flight, not onto "
                    "close infiltration if it cannot infiltrate)"
                ),
                "Si à la fin d'un Combat de Choc l'Hex attaqué est libre et que "
                "l'attaque était Soutenue, l'Unité Attaquante doit avancer",
            )
        )
    if state.shock and state.attacker_charging:
        items.append(
            SheetItem(
                "advance_charge_marker",
                _(
                    "After the advance: a charging attacker still engaging an enemy "
                    "keeps its charge marker (no new engagement test); otherwise it "
                    "loses it and takes a breath level"
                ),
                "Si à la suite de cette Avance, l'Unité Engage toujours une Unité "
                "ennemie et Chargeait, le Marqueur Charge est conservé",
            )
        )
    items.append(
        SheetItem(
            "chosen_spell",
            _("Each character that takes a loss loses its chosen spell at once"),
            "Chaque Personnage qui subit une perte et qui a un Sort Choisi sous lui, "
            "le perd immédiatement",
        )
    )
    return items
