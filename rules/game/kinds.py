"""Every command and event kind of ``rules.game``, and its fields, in one place.

The runtime values stay the plain dicts ``decide``, ``evolve`` and ``replay``
take (outside checks drive them); these ``TypedDict`` describe them so an
editor can follow a key from the tap (a command) to the fold (an event).

A command is ``{"type": <kind>, ...fields}``; the handler of each kind is
registered in ``rules.game.engine.COMMAND_TABLE``. An event is ``{"kind",
"side", "payload"}`` (the log adds ``"seq"`` and ``"action"``); its payload
is folded by ``rules.game.evolve.EVOLVERS[kind]``.

``COMMAND_FIELDS`` declares every command's fields once, with their kind
(``Field``): an id, a bounded whole number, a yes/no, a distance, a text, one
of some choices, a list of ids, or a map of ids (posted as ``prefix<key>``).
The tap parser (``battles.taps``) reads a posted form through it, so a new
command needs no hand-written parsing; the rules then check legality.
"""

from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from rules.game.state import CHARACTERISTICS

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


class Pursue(TypedDict):
    """VII-C-6: a fighter freed by a combat records the contact its pursuit
    move makes, joining a combat still to fight (or making a new one)."""

    type: Literal["pursue"]
    fighter: FighterId
    target: FighterId


class Initiative(TypedDict):
    """VII-C-2: the side names its fighter for the opposed Initiative test."""

    type: Literal["initiative"]
    fighter: FighterId


class PlaceDice(TypedDict):
    """VII-C-1: a fighter's combat dice, ``attack`` of them in attack, the rest
    in defence; ``sequence``: the Enchaînement/X dice taken (-2 ATT, -2 DEF
    each, this combat only)."""

    type: Literal["place_dice"]
    fighter: FighterId
    attack: int
    sequence: NotRequired[int]
    war_fury: NotRequired[bool]


class Attack(TypedDict):
    """VII-C-3, VII-C-4: one attack die (two for Coup de maître/X)."""

    type: Literal["attack"]
    attacker: FighterId
    target: FighterId
    master_strike: NotRequired[bool]
    amplified: NotRequired[int]
    attenuated: NotRequired[int]


class Parry(TypedDict):
    """VII-C-4: the target's side commits ``dice`` defence dice (0 takes the
    blow) before the attack test; ``counter`` for Contre-attaque."""

    type: Literal["parry"]
    dice: int
    counter: NotRequired[bool]


class Ambidextrous(TypedDict):
    """Ambidextre against an attack that failed: keep the defence dice
    committed, or ``swap`` them for an attack die used at once."""

    type: Literal["ambidextrous"]
    swap: bool


class TickUpkeep(TypedDict):
    """IV-D: the next item of the upkeep checklist (its owner's, IV-D-3)."""

    type: Literal["tick_upkeep"]
    key: str
    rallied: NotRequired[bool]
    value: NotRequired[int]
    pay: NotRequired[bool]  # an upkept effect: pay its cost, or let it end
    difficulty: NotRequired[int]  # not read: the ruling "rally_difficulty" sets it
    all_markers: NotRequired[bool]  # a marker line: every marker of the side
    gems: NotRequired[dict[str, int]]  # X-G-1: the gems a magician recovers


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
    cost: NotRequired[int]  # a spell's mana or a miracle's faith, spent now


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


class RallyingCry(TypedDict):
    """Cri de ralliement (IX): sounded once per game by a fighter with it."""

    type: Literal["rallying_cry"]
    fighter: FighterId


class SetRouted(TypedDict):
    type: Literal["set_routed"]
    fighter: FighterId
    routed: bool


class SetMystic(TypedDict):
    type: Literal["set_mystic"]
    fighter: FighterId
    mana: NotRequired[int]
    faith: NotRequired[int]
    gems: NotRequired[dict[str, int]]  # X: a magician's reserve by element


class Cast(TypedDict):
    """X: a magician's spell (rules.game.magic_phase); ``extra``: the mastery
    gems, one more die each; ``difficulty``: typed when the spell's is a
    formula."""

    type: Literal["cast"]
    fighter: FighterId
    spell: str
    extra: NotRequired[dict[str, int]]
    target: NotRequired[FighterId]
    difficulty: NotRequired[int]
    cost: NotRequired[dict[str, int]]  # entered: the spell's cost is unknown


class Counter(TypedDict):
    """X: the adversary's magician pays the opposed gems (``pay``) or not."""

    type: Literal["counter"]
    fighter: FighterId
    pay: bool


class Call(TypedDict):
    """XI: a faithful's miracle, with its ``fervour`` (temporary faith)."""

    type: Literal["call"]
    fighter: FighterId
    miracle: str
    fervour: NotRequired[int]
    target: NotRequired[FighterId]
    difficulty: NotRequired[int]


class Concede(TypedDict):
    type: Literal["concede"]


class CallTime(TypedDict):
    """Time called (issue #29): sent by the app once both phones agree, with
    the army points each side destroyed, read from the log."""

    type: Literal["call_time"]
    score_a: NotRequired[int]
    score_b: NotRequired[int]


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
    | Pursue
    | Initiative
    | PlaceDice
    | Attack
    | Parry
    | Ambidextrous
    | TickUpkeep
    | RallyingCry
    | SetRouted
    | SetMystic
    | Cast
    | Counter
    | Call
    | Concede
    | Roll
    | Reroll
    | Keep
    | CallTime
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
    "pursue": Pursue,
    "initiative": Initiative,
    "place_dice": PlaceDice,
    "attack": Attack,
    "parry": Parry,
    "ambidextrous": Ambidextrous,
    "tick_upkeep": TickUpkeep,
    "rallying_cry": RallyingCry,
    "set_routed": SetRouted,
    "set_mystic": SetMystic,
    "cast": Cast,
    "counter": Counter,
    "call": Call,
    "concede": Concede,
    "roll": Roll,
    "reroll": Reroll,
    "keep": Keep,
    "characteristic_test": CharacteristicTest,
    "scatter": Scatter,
    "record_effect": RecordEffect,
    "end_effect": EndEffect,
    "call_time": CallTime,
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
    "rallying_cry": RallyingCrySounded,
    "time_call_requested": TimeCallRequested,
    "time_call_refused": TimeCallRefused,
}


class Event(TypedDict):
    kind: str  # a key of EVENT_KINDS
    side: Side | None
    payload: dict[str, Any]  # the kind's TypedDict
    seq: NotRequired[int]
    action: NotRequired[int]


# --- the fields of each command, declared once (read by the tap parser) ----------

FieldType = Literal[
    "id", "int", "bool", "float", "text", "choice", "list", "map", "gems"
]

MAX_ID = 24  # a fighter or card id ("a12.3")
MAX_LIST = 60  # ids in one list or map
MAX_TEXT = 60  # a label, an effect's name
MAX_KEY = 200  # an upkeep item's key
MAX_DICE = 30  # combat dice of one fighter (rules.melee.MAX_COMBAT_DICE)


@dataclass(frozen=True)
class Field:
    """One field of a command as a phone posts it.

    - ``id``: a text of at most ``max_length`` characters (a fighter, a card);
    - ``int``: a whole number from ``low`` to ``high``;
    - ``float``: a number from ``low`` to ``high`` (a distance);
    - ``bool``: a yes/no ("1", "true", "on", "yes" are yes);
    - ``text``: a text of at most ``max_length`` characters;
    - ``choice``: one of ``choices``;
    - ``list``: several ids (the field repeated), at most ``max_items``;
    - ``map``: ``{key: id}`` posted as fields named ``prefix + key``, at most
      ``max_items``;
    - ``gems``: ``{element: n}`` posted as fields named ``prefix + element``
      (the six elements, and "neutral"), each a whole number ``low`` to
      ``high``; the elements left out or empty count 0.

    A field left out (or empty) takes ``default`` when it is not ``required``
    (``None``: the field is left out of the command).
    """

    name: str
    type: FieldType
    required: bool = True
    low: int | float | None = None
    high: int | float | None = None
    max_length: int | None = None
    choices: tuple[Any, ...] = ()
    max_items: int | None = None
    prefix: str = ""
    default: Any = None


def _id(name: str, *, required: bool = True) -> Field:
    return Field(name, "id", required=required, max_length=MAX_ID)


def _int(name: str, low: int, high: int, *, required: bool = True, default=None):
    return Field(name, "int", required=required, low=low, high=high, default=default)


def _bool(name: str, *, default: bool = False) -> Field:
    return Field(name, "bool", required=False, default=default)


def _choice(name: str, choices: tuple[Any, ...], *, required: bool = True) -> Field:
    return Field(name, "choice", required=required, choices=choices)


def _text(name: str, max_length: int = MAX_TEXT, *, required: bool = False):
    return Field(name, "text", required=required, max_length=max_length)


def _gems(name: str, prefix: str, high: int) -> Field:
    return Field(
        name, "gems", required=False, low=0, high=high, prefix=prefix, max_items=7
    )


_WOUND_MODIFIERS = (
    _int("amplified", 0, 5, required=False),
    _int("attenuated", 0, 5, required=False),
)
_CHARACTERISTICS = CHARACTERISTICS

COMMAND_FIELDS: dict[str, tuple[Field, ...]] = {
    "set_sequence": (Field("order", "list", max_items=MAX_LIST, max_length=MAX_ID),),
    "choose_tactics_fighter": (_id("fighter"),),
    "choose_first": (_choice("first", ("a", "b")),),
    "draw": (
        _choice(
            "action",
            ("draw", "reserve", "play_reserve", "play_reserve_and_top", "refuse"),
        ),
    ),
    "end_activation": (),
    "declare": (
        _id("fighter"),
        _choice(
            "action", ("charge", "engagement", "run", "covered_move", "walk", "mystic")
        ),
        Field("targets", "list", required=False, max_items=MAX_LIST, max_length=MAX_ID),
    ),
    "disengage": (
        _id("fighter"),
        _choice("method", ("INI", "FOR"), required=False),
        _bool("free_side", default=True),
    ),
    "shoot": (
        _id("fighter"),
        _id("target"),
        Field("distance_cm", "float", low=0, high=1000),
        _id("nearest_friend", required=False),
        *_WOUND_MODIFIERS,
    ),
    "set_contact": (_id("one"), _id("two"), _bool("contact")),
    # The split of the melees: "who faces whom" (opponent:<fighter> = fighter),
    # or, when no such field is sent, the split the app suggested.
    "form_combats": (
        Field(
            "choices",
            "map",
            required=False,
            max_items=MAX_LIST,
            max_length=MAX_ID,
            prefix="opponent:",
        ),
        _choice("combats", ("suggested",), required=False),
    ),
    "choose_combat": (_int("combat", 0, 500),),
    "pursue": (_id("fighter"), _id("target")),
    "initiative": (_id("fighter"),),
    "place_dice": (
        _id("fighter"),
        _int("attack", 0, MAX_DICE),
        _int("sequence", 0, MAX_DICE, required=False, default=0),
        _bool("war_fury"),
    ),
    "attack": (
        _id("attacker"),
        _id("target"),
        _bool("master_strike"),
        *_WOUND_MODIFIERS,
    ),
    "parry": (_int("dice", 0, MAX_DICE), _bool("counter")),
    "ambidextrous": (_bool("swap"),),
    "tick_upkeep": (
        _text("key", MAX_KEY, required=True),
        _bool("rallied"),
        _int("value", 0, 99, required=False),
        _bool("pay"),
        _bool("all_markers"),
        _int("difficulty", 1, 30, required=False),
        _gems("gems", "gems:", 99),
    ),
    "characteristic_test": (
        _id("fighter"),
        _choice("characteristic", _CHARACTERISTICS),
        _int("difficulty", 1, 30, required=False),
        _id("opponent", required=False),
        _choice("opponent_characteristic", _CHARACTERISTICS, required=False),
        _int("dice", 1, 5, required=False, default=1),
        _int("modifier", -10, 10, required=False, default=0),
        _choice("use", ("courage", "rally", "spell", "miracle", "skill", "other")),
        _text("label"),
        _int("cost", 0, 99, required=False),
    ),
    "scatter": (_text("label"),),
    "record_effect": (
        _id("fighter"),
        _text("name", required=True),
        _choice("kind", ("harmful", "skill", "spell", "miracle", "other")),
        _choice("duration", ("end_of_turn", "turns", "permanent", "upkeep")),
        _bool("active"),
        _int("turns", 1, 20, required=False),
        _int("cost", 0, 99, required=False),
        _id("caster", required=False),
    ),
    "end_effect": (_text("effect", required=True),),
    "rallying_cry": (_id("fighter"),),
    "set_routed": (_id("fighter"), _bool("routed")),
    "set_mystic": (
        _id("fighter"),
        _int("mana", 0, 99, required=False),
        _int("faith", 0, 99, required=False),
        _gems("gems", "gems:", 99),
    ),
    "cast": (
        _id("fighter"),
        _text("spell", MAX_TEXT, required=True),
        _gems("extra", "extra:", 4),
        _id("target", required=False),
        _int("difficulty", 1, 30, required=False),
        _gems("cost", "cost:", 30),
    ),
    "counter": (_id("fighter"), _bool("pay")),
    "call": (
        _id("fighter"),
        _text("miracle", MAX_TEXT, required=True),
        _int("fervour", 1, 99, required=False),
        _id("target", required=False),
        _int("difficulty", 1, 30, required=False),
    ),
    "concede": (),
    "roll": (),
    "reroll": (),
    "keep": (),
    "call_time": (
        _int("score_a", 0, 9999, required=False),
        _int("score_b", 0, 9999, required=False),
    ),
}


__all__ = [
    "COMMAND_FIELDS",
    "COMMAND_KINDS",
    "EVENT_KINDS",
    "Command",
    "Event",
    "Field",
]
