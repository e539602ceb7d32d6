"""Every event kind of ``rules.game``, and its payload's fields, in one place.

The runtime values stay the plain dicts ``decide``, ``evolve`` and ``replay``
take (outside checks drive them); these ``TypedDict`` describe them so an
editor can follow a key from a command to the fold. An event is ``{"kind",
"side", "payload"}`` (the log adds ``"seq"`` and ``"action"``); its payload
is folded by ``rules.game.evolve.EVOLVERS[kind]``.

The commands (what a phone sends) are declared where their rule is, one class
each (``rules.game.commands.CommandKind``), and listed in
``rules.game.commands.COMMAND_TABLE``.
"""

from typing import Any, Literal, NotRequired, TypedDict

Side = Literal["a", "b"]
FighterId = str  # "a2.1": side, card number, fighter number
CardId = str  # "a2"


# --- event payloads (what the log keeps) ------------------------------------------


class GameStarted(TypedDict):
    state: dict[str, Any]


class SequenceSet(TypedDict):
    side: Side
    order: list[CardId]


class TacticsFighterSet(TypedDict):
    side: Side
    fighter: FighterId


class StepChanged(TypedDict):
    phase: NotRequired[str]
    step: str
    pending: NotRequired[dict[str, Any] | None]


class PendingSet(TypedDict):
    pending: dict[str, Any] | None


class RollUpdated(TypedDict):
    pending: dict[str, Any]
    faces: list[int]
    reroll: bool | None
    automatic: NotRequired[str]  # "attack_succeeds": a six kept without a tap


class TacticsWon(TypedDict):
    winner: Side
    rounds: list[list[int]]
    faces: list[int]
    values: dict[Side, int]
    odds: str
    fighters: dict[Side, FighterId]
    labels: dict[Side, str]


class FirstChosen(TypedDict):
    first: Side
    draw: dict[str, Any]  # rules.activation.DrawPhase.to_dict()


class CardsPlayed(TypedDict):
    action: str
    cards: list[CardId]
    card_names: list[str]
    draw: dict[str, Any]
    active: dict[str, Any] | None  # {"side", "cards", "fighters"}


class ActivationEnded(TypedDict):
    active: None
    reason: NotRequired[str]  # "failed_charge": ended by itself (IX)
    side: NotRequired[Side]
    fighter: NotRequired[FighterId]
    label: NotRequired[str]


class ActionDeclared(TypedDict):
    fighter: FighterId
    label: str
    action: str
    move_cm: NotRequired[float | None]
    # charge and engagement
    contacts: NotRequired[list[list[FighterId]]]
    targets: NotRequired[list[FighterId]]
    target_labels: NotRequired[list[str]]
    engaged: NotRequired[list[FighterId]]
    charged: NotRequired[bool]
    # shoot
    target: NotRequired[FighterId]
    target_label: NotRequired[str]
    distance_cm: NotRequired[float]
    difficulty: NotRequired[int | None]
    band: NotRequired[str | None]


class ContactsChanged(TypedDict):
    contacts: list[list[FighterId]]
    labels: NotRequired[list[str]]
    contact: NotRequired[bool]
    reason: NotRequired[str]
    house_ruling: NotRequired[str]  # "failed_charge": the charge undone
    engaged: NotRequired[list[FighterId]]  # the fighters engaged, put back


class TestResolved(TypedDict):
    purpose: str
    side: Side
    value: int
    difficulty: int
    faces: list[int]
    natural: int
    final: int
    success: bool
    odds: str
    section: str
    context: dict[str, Any]
    next: dict[str, Any] | None
    dice: NotRequired[int]  # a test at the table: several dice (II-A-2)
    throws: NotRequired[list[list[int]]]
    label: NotRequired[str]
    house_ruling: NotRequired[str]  # "parry_tie", "counter_short"
    house_rulings: NotRequired[list[str]]  # more: "sustained_defence"


class Disengaged(TypedDict):
    fighter: FighterId
    label: str
    success: bool
    contacts: list[list[FighterId]]
    move_cm: float | int | None


class SplitRolled(TypedDict):
    face: int
    hits: FighterId
    hits_label: str
    hits_target: bool
    pending: dict[str, Any]


class WoundRolled(TypedDict):
    target: FighterId
    target_label: str
    source: FighterId
    source_label: str
    faces: list[int]
    strength: int
    resistance: int
    location: str
    row: int
    row_label: str
    outcome: str
    steps_after: int
    stunned_after: bool
    eliminated: bool
    odds: dict[str, str]
    fierce: NotRequired[bool]  # Acharné: killed outright, kept to the upkeep


class FighterChanged(TypedDict):
    fighter: FighterId
    label: NotRequired[str]
    changes: dict[str, Any]  # steps, stunned, routed, eliminated, charged, ...
    section: NotRequired[str]  # "IX": routed by a failed Courage test
    upkeep: NotRequired[dict[str, Any]]  # routed in the upkeep: its rally added
    # "failed_charge": a charger routed; X: gems given back ("gems_on_failure")
    house_ruling: NotRequired[str]


class TestCertain(TypedDict):
    """II-A-1: a Courage or rally test at the table, or a spell's power test
    or a miracle's test from the list, that the dice cannot miss (value + 1
    >= difficulty; for a spell or a miracle, under the ``natural_one``
    ruling, named in ``house_ruling``), recorded as passed without a roll:
    the test as it would have waited (``rules.game.table_rolls.
    check_pending``)."""

    kind: str
    purpose: str
    side: Side
    value: int
    difficulty: int
    dice: int
    section: str
    odds: str
    roll: None
    context: dict[str, Any]
    house_ruling: NotRequired[str]


class CourageCertain(TypedDict):
    """IX: a Courage test the dice cannot miss, recorded without a roll."""

    fighter: FighterId
    label: str
    side: Side
    courage: int
    fear: int
    feared: FighterId
    feared_label: str
    odds: str
    section: str
    living_dead: NotRequired[bool]  # a Mort-vivant calls for it (S11)
    characteristic: NotRequired[str]  # "PEUR": a fearsome fighter's own
    rallying_cry: NotRequired[int]  # Cri de ralliement's +1 (IX)


class CourageSpared(TypedDict):
    """IX: a Courage test a passed one spares (the ruling ``fear_immunity``)."""

    fighter: FighterId
    label: str
    side: Side
    fear: int
    feared: FighterId
    feared_label: str
    resisted: int  # the highest PEUR it passed a test against
    section: str
    house_ruling: str


class InitiativeNamed(TypedDict):
    side: Side
    fighter: FighterId
    label: str
    automatic: NotRequired[bool]  # the side's only fighter, named without a tap


class InitiativeWon(TypedDict):
    side: Side
    fighter: FighterId
    label: str
    margin: int  # the last round's finals, apart
    finals: dict[Side, int]
    rounds: NotRequired[list[list[int]]]  # every round, ties first (II-A-3)


class DicePlaced(TypedDict):
    fighter: FighterId
    label: str
    side: Side
    total: int
    attack: int
    defence: int
    sequence: int  # Enchaînement/X dice taken (-2 ATT, -2 DEF each)
    war_fury: bool  # Furie guerrière: +1 attack die (counted in attack, total)
    forced: Literal["disengagement", "routed"] | None  # all in defence
    automatic: NotRequired[bool]  # a forced placement made without a tap


class AttackDeclared(TypedDict):
    attacker: FighterId
    attacker_label: str
    target: FighterId
    target_label: str
    master_strike: bool
    exchange: int


class ParryDeclared(TypedDict):
    target: FighterId
    label: str
    dice: int
    counter: bool
    odds: str | None  # that the blow does not land, with these dice


class AttackDieGained(TypedDict):
    fighter: FighterId
    label: str
    ability: Literal["counter", "ambidextrous"]
    target: FighterId  # the attacker, struck at once
    target_label: str


class CombatUpdated(TypedDict):
    """The combat phase's state (``combat``) and what happened: one of the
    optional keys says it (the log words it)."""

    combat: dict[str, Any] | None
    pending: NotRequired[dict[str, Any] | None]
    formed: NotRequired[list[list[FighterId]]]
    chosen: NotRequired[int]
    automatic: NotRequired[bool]  # the only combat left, chosen without a tap
    initiative_named: NotRequired[InitiativeNamed]
    initiative_won: NotRequired[InitiativeWon]
    placed: NotRequired[DicePlaced]
    attack_declared: NotRequired[AttackDeclared]
    parry_declared: NotRequired[ParryDeclared]
    returned: NotRequired[dict[str, Any]]  # {fighter, label, dice}: never rolled
    gained: NotRequired[AttackDieGained]
    exchange: NotRequired[int]  # a new exchange begins (VII-C-3)
    opener: NotRequired[Side]  # the side that opens it (``exchange_opener``)
    ended: NotRequired[int]
    reason: NotRequired[str]  # why it ended: "no_adversary" or "no_attack_die"
    free: NotRequired[list[FighterId]]  # freed from contact when it ended
    pursuit: NotRequired[str]  # the "pursuit" ruling then in force
    free_labels: NotRequired[list[str]]  # the names of ``free``
    house_ruling: NotRequired[str]  # a rules.melee.HOUSE_RULINGS name
    # Rolls that decide nothing, not asked for (RULES_API "Melee"): what
    # happened and why. ``attack_certain``: {attacker, label, target,
    # target_label, value, odds, section}, no defence die committed and ATT
    # 0 or more; ``parry_certain``: {target, label, attacker, attacker_label,
    # dice, value, needed, attack_final, counter, bonus, odds, section}.
    attack_certain: NotRequired[dict[str, Any]]
    parry_certain: NotRequired[dict[str, Any]]
    # A freed fighter's pursuit recorded (VII-C-6): {fighter, label, target,
    # target_label, combat, fighters, section}.
    pursued: NotRequired[dict[str, Any]]


class UpkeepStarted(TypedDict):
    upkeep: dict[str, Any]  # {"items": [...], "ticked": [...]}


class UpkeepTicked(TypedDict):
    key: str
    label_en: str
    label_fr: str
    section: str
    changes: list[FighterChanged]
    rallied: bool | None
    effect: NotRequired[dict[str, Any]]  # an upkept effect: paid, ends
    regeneration: NotRequired[dict[str, Any] | None]  # Régénération/X's roll
    reserve: NotRequired[dict[str, Any]]  # mana or faith given: before, after, high
    house_ruling: NotRequired[str]  # "rally_difficulty": a rally's difficulty
    rally_certain: NotRequired[dict[str, int]]  # {courage, difficulty}: no roll


class OpposedResolved(TypedDict):
    """II-A-3: an opposed test at the table has a winner."""

    purpose: str
    winner: Side
    rounds: list[list[int]]
    faces: list[int]
    values: dict[str, int]
    odds: str
    section: str
    context: dict[str, Any]
    labels: dict[str, str]
    pending: None


class ScatterRolled(TypedDict):
    """II-C-5: the scatter's faces, distance and direction."""

    faces: list[int]
    distance_cm: int
    direction: int
    label: str
    section: str


class EffectRecorded(TypedDict):
    effect: dict[str, Any]
    label: str
    section: str


class EffectEnded(TypedDict):
    id: str
    name: str
    label: str
    section: str


class SpellCast(TypedDict):
    """X: a spell cast, its gems paid; the power test or a counter follows."""

    fighter: FighterId
    label: str
    spell: str
    cost: dict[str, int]
    extra: dict[str, int]
    gems_before: dict[str, int]
    gems_after: dict[str, int]
    target: FighterId | None
    target_label: str
    difficulty: int
    dice: int
    power: int
    odds: str
    declared: bool  # the mystic action declared with it (IV-B-2)
    section: str


class SpellCountered(TypedDict):
    """X: the adversary's magician paid the opposed gems: no effect."""

    fighter: FighterId
    label: str
    caster: FighterId
    caster_label: str
    spell: str
    paid: dict[str, int]
    gems_after: dict[str, int]
    frequency_used: bool
    section: str


class MiracleCalled(TypedDict):
    """XI: a miracle called, its fervour spent; the faith test follows."""

    fighter: FighterId
    label: str
    miracle: str
    fervour: int
    faith_before: int
    faith_after: int
    target: FighterId | None
    target_label: str
    difficulty: int
    odds: str
    declared: bool
    house_ruling: str
    section: str


class TurnStarted(TypedDict):
    turn: int


class GameFinished(TypedDict):
    reason: Literal["conceded", "wiped_out", "last_turn", "time_called"]
    winner: Side | None
    score_a: NotRequired[int]  # time called: army points destroyed
    score_b: NotRequired[int]


class DiceDrawn(TypedDict):
    """The action drew dice: ``roll`` is its number (the seeded dice's index,
    ``rules.game.roll_numbers``), ``faces`` what it drew, ``key`` what makes it
    this roll (absent from rolls logged before issue 30)."""

    roll: int
    faces: list[int]
    key: NotRequired[str]


class Undone(TypedDict):
    """Not folded by ``evolve``: ``replay`` leaves the ``action`` out."""

    action: int
    asked_by: NotRequired[Side]
    agreed_by: NotRequired[Side]


class UndoRequested(TypedDict):
    action: int


class UndoRefused(TypedDict):
    action: int
    asked_by: Side


class DiceModeRequested(TypedDict):
    """A side asks to switch the game's dice: ``mode`` "app" (the app's
    seeded dice) or "entered" (faces typed from real dice)."""

    mode: Literal["app", "entered"]


class DiceModeChanged(TypedDict):
    """The game's dice switched to ``mode`` (with the other side's word,
    ``agreed_by``, on two phones)."""

    mode: Literal["app", "entered"]
    asked_by: NotRequired[Side]
    agreed_by: NotRequired[Side]


class RallyingCrySounded(TypedDict):
    fighter: FighterId
    label: str
    side: Side
    turn: int
    rallied: list[FighterId]  # its side's routed fighters, rallied
    rallied_labels: list[str]
    section: str


class DiceModeRefused(TypedDict):
    mode: Literal["app", "entered"]
    asked_by: Side


class TimeCallRequested(TypedDict):
    """A side asks to end the game now (time called, issue #29); the other
    side's agreement ends it with these army points destroyed."""

    score_a: int
    score_b: int


class TimeCallRefused(TypedDict):
    asked_by: Side


EVENT_KINDS: dict[str, type] = {
    "game_started": GameStarted,
    "sequence_set": SequenceSet,
    "tactics_fighter_set": TacticsFighterSet,
    "step_changed": StepChanged,
    "pending_set": PendingSet,
    "roll_updated": RollUpdated,
    "tactics_won": TacticsWon,
    "first_chosen": FirstChosen,
    "cards_played": CardsPlayed,
    "activation_ended": ActivationEnded,
    "action_declared": ActionDeclared,
    "contacts_changed": ContactsChanged,
    "test_resolved": TestResolved,
    "opposed_resolved": OpposedResolved,
    "scatter_rolled": ScatterRolled,
    "test_certain": TestCertain,
    "courage_certain": CourageCertain,
    "courage_spared": CourageSpared,
    "effect_recorded": EffectRecorded,
    "effect_ended": EffectEnded,
    "disengaged": Disengaged,
    "split_rolled": SplitRolled,
    "wound_rolled": WoundRolled,
    "fighter_changed": FighterChanged,
    "combat_updated": CombatUpdated,
    "upkeep_started": UpkeepStarted,
    "upkeep_ticked": UpkeepTicked,
    "turn_started": TurnStarted,
    "game_finished": GameFinished,
    "dice_drawn": DiceDrawn,
    "spell_cast": SpellCast,
    "spell_countered": SpellCountered,
    "miracle_called": MiracleCalled,
    "undone": Undone,
    "undo_requested": UndoRequested,
    "undo_refused": UndoRefused,
    "dice_mode_requested": DiceModeRequested,
    "dice_mode_changed": DiceModeChanged,
    "dice_mode_refused": DiceModeRefused,
    "time_call_requested": TimeCallRequested,
    "time_call_refused": TimeCallRefused,
    "rallying_cry": RallyingCrySounded,
}


class Event(TypedDict):
    kind: str  # a key of EVENT_KINDS
    side: Side | None
    payload: dict[str, Any]  # the kind's TypedDict
    seq: NotRequired[int]
    action: NotRequired[int]


__all__ = [
    "EVENT_KINDS",
    "Event",
]
