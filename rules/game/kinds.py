"""Every command and event kind of ``rules.game``, and its fields, in one place.

The runtime values stay the plain dicts ``decide``, ``evolve`` and ``replay``
take (outside checks drive them); these ``TypedDict`` describe them so an
editor can follow a key from the tap (a command) to the fold (an event).

A command is ``{"type": <kind>, ...fields}``; the handler of each kind is
registered in ``rules.game.engine.COMMAND_TABLE``. An event is ``{"kind",
"side", "payload"}`` (the log adds ``"seq"`` and ``"action"``); its payload
is folded by ``rules.game.evolve.EVOLVERS[kind]``.
"""

from typing import Any, Literal, NotRequired, TypedDict

Side = Literal["a", "b"]
FighterId = str  # "a2.1": side, card number, fighter number
CardId = str  # "a2"


# --- commands (what a phone sends) ----------------------------------------------


class SetSequence(TypedDict):
    """IV-A-1: the side's activation sequence, top card first."""

    type: Literal["set_sequence"]
    order: list[CardId]


class ChooseTacticsFighter(TypedDict):
    """IV-A-2: the fighter whose DIS rolls the Tactics roll (until rolled)."""

    type: Literal["choose_tactics_fighter"]
    fighter: FighterId


class ChooseFirst(TypedDict):
    """IV-B-1: the Tactics winner chooses who speaks first."""

    type: Literal["choose_first"]
    first: Side


class Draw(TypedDict):
    """IV-B-1: what the side with the floor does."""

    type: Literal["draw"]
    action: Literal["draw", "reserve", "play_reserve", "play_reserve_and_top", "refuse"]


class EndActivation(TypedDict):
    type: Literal["end_activation"]


class Declare(TypedDict):
    """IV-B-2: an exclusive action, a walk or a mystic action."""

    type: Literal["declare"]
    fighter: FighterId
    action: Literal["charge", "engagement", "run", "covered_move", "walk", "mystic"]
    targets: NotRequired[list[FighterId]]  # charge and engagement


class Disengage(TypedDict):
    """Initiation rules, "Désengagement"."""

    type: Literal["disengage"]
    fighter: FighterId
    method: NotRequired[Literal["INI", "FOR"]]  # INI when left out
    free_side: NotRequired[bool]  # True when left out


class Shoot(TypedDict):
    """Initiation rules, "Tir"."""

    type: Literal["shoot"]
    fighter: FighterId
    target: FighterId
    distance_cm: float
    nearest_friend: NotRequired[FighterId | None]
    amplified: NotRequired[int]
    attenuated: NotRequired[int]


class SetContact(TypedDict):
    """II-E: correct the contacts to match the table."""

    type: Literal["set_contact"]
    one: FighterId
    two: FighterId
    contact: bool


class FormCombats(TypedDict):
    """IV-C: the Tactics winner splits the melees."""

    type: Literal["form_combats"]
    combats: NotRequired[Literal["suggested"] | list[dict[str, Any]]]
    choices: NotRequired[dict[FighterId, FighterId]]


class ChooseCombat(TypedDict):
    type: Literal["choose_combat"]
    combat: int


class SetCombatDice(TypedDict):
    type: Literal["set_combat_dice"]
    fighter: FighterId
    attack: int
    defence: int


class SetAttackDifficulty(TypedDict):
    type: Literal["set_attack_difficulty"]
    difficulty: int | Literal["DEF"] | None


class Attack(TypedDict):
    type: Literal["attack"]
    attacker: FighterId
    target: FighterId
    amplified: NotRequired[int]
    attenuated: NotRequired[int]


class Parry(TypedDict):
    type: Literal["parry"]
    parry: bool


class EndCombat(TypedDict):
    """IV-C: the side declines the attack dice it still holds."""

    type: Literal["end_combat"]


class TickUpkeep(TypedDict):
    """IV-D: the next item of the upkeep checklist (its owner's, IV-D-3)."""

    type: Literal["tick_upkeep"]
    key: str
    rallied: NotRequired[bool]
    value: NotRequired[int]
    pay: NotRequired[bool]  # an upkept effect: pay its cost, or let it end
    difficulty: NotRequired[int]  # a rally test's difficulty (IV-D-1)


class CharacteristicTest(TypedDict):
    """II-A: a test of any characteristic of one's own fighter, against a
    difficulty (with several dice, II-A-2) or opposed to an adversary (II-A-3)."""

    type: Literal["characteristic_test"]
    fighter: FighterId
    characteristic: str
    difficulty: NotRequired[int]
    opponent: NotRequired[FighterId]
    opponent_characteristic: NotRequired[str]
    dice: NotRequired[int]
    modifier: NotRequired[int]
    use: NotRequired[str]  # courage, rally, spell, miracle, skill, other
    label: NotRequired[str]


class Scatter(TypedDict):
    """II-C-5: the distance and the direction of a scatter."""

    type: Literal["scatter"]
    label: NotRequired[str]


class RecordEffect(TypedDict):
    """II-C-3: a lasting effect on a fighter, its duration and upkeep."""

    type: Literal["record_effect"]
    fighter: FighterId
    name: str
    kind: str  # harmful, skill, spell, miracle, other
    duration: str  # end_of_turn, turns, permanent, upkeep
    active: NotRequired[bool]
    turns: NotRequired[int]
    cost: NotRequired[int]
    caster: NotRequired[FighterId]


class EndEffect(TypedDict):
    """II-C-3: the owner ends a lasting effect."""

    type: Literal["end_effect"]
    effect: str


class SetRouted(TypedDict):
    type: Literal["set_routed"]
    fighter: FighterId
    routed: bool


class SetMystic(TypedDict):
    type: Literal["set_mystic"]
    fighter: FighterId
    mana: NotRequired[int]
    faith: NotRequired[int]


class Concede(TypedDict):
    type: Literal["concede"]


class Roll(TypedDict):
    """Roll what the game waits for (a test, a Tactics roll, a split, a wound)."""

    type: Literal["roll"]


class Reroll(TypedDict):
    type: Literal["reroll"]


class Keep(TypedDict):
    type: Literal["keep"]


Command = (
    SetSequence
    | ChooseTacticsFighter
    | ChooseFirst
    | Draw
    | EndActivation
    | Declare
    | Disengage
    | Shoot
    | SetContact
    | FormCombats
    | ChooseCombat
    | SetCombatDice
    | SetAttackDifficulty
    | Attack
    | Parry
    | EndCombat
    | TickUpkeep
    | SetRouted
    | SetMystic
    | Concede
    | Roll
    | Reroll
    | Keep
)

COMMAND_KINDS: dict[str, type] = {
    "set_sequence": SetSequence,
    "choose_tactics_fighter": ChooseTacticsFighter,
    "choose_first": ChooseFirst,
    "draw": Draw,
    "end_activation": EndActivation,
    "declare": Declare,
    "disengage": Disengage,
    "shoot": Shoot,
    "set_contact": SetContact,
    "form_combats": FormCombats,
    "choose_combat": ChooseCombat,
    "set_combat_dice": SetCombatDice,
    "set_attack_difficulty": SetAttackDifficulty,
    "attack": Attack,
    "parry": Parry,
    "end_combat": EndCombat,
    "tick_upkeep": TickUpkeep,
    "set_routed": SetRouted,
    "set_mystic": SetMystic,
    "concede": Concede,
    "roll": Roll,
    "reroll": Reroll,
    "keep": Keep,
    "characteristic_test": CharacteristicTest,
    "scatter": Scatter,
    "record_effect": RecordEffect,
    "end_effect": EndEffect,
}


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


class FighterChanged(TypedDict):
    fighter: FighterId
    label: NotRequired[str]
    changes: dict[str, Any]  # steps, stunned, routed, eliminated, charged, ...


class CombatUpdated(TypedDict):
    combat: dict[str, Any] | None
    pending: NotRequired[dict[str, Any] | None]
    formed: NotRequired[list[list[FighterId]]]
    chosen: NotRequired[int]
    dice_set: NotRequired[dict[str, Any]]
    declined: NotRequired[Side]  # IV-C: a side declined its attack dice
    ended: NotRequired[int]


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


class TurnStarted(TypedDict):
    turn: int


class GameFinished(TypedDict):
    reason: Literal["conceded", "wiped_out", "last_turn"]
    winner: Side | None


class DiceDrawn(TypedDict):
    """The action drew dice: ``roll`` is the count of rolls before it (the
    seeded dice's index, rewound by an undo), ``faces`` what it drew."""

    roll: int
    faces: list[int]


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
    "undone": Undone,
    "undo_requested": UndoRequested,
    "undo_refused": UndoRefused,
}


class Event(TypedDict):
    kind: str  # a key of EVENT_KINDS
    side: Side | None
    payload: dict[str, Any]  # the kind's TypedDict
    seq: NotRequired[int]
    action: NotRequired[int]


__all__ = ["COMMAND_KINDS", "EVENT_KINDS", "Command", "Event"]
