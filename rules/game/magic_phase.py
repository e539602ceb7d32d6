"""Spells and miracles in the game: cast, counter, call (X, XI).

Chapters X and XI are not among the seeds; ``rules.magic`` holds what the
public sources establish (``rules-data/magic-faith-sources.md``) and the
house rulings for the rest. Here they are commands:

* ``{"type": "cast", "fighter", "spell", "extra": {element: n}}`` (and
  ``"target"``; ``"difficulty"`` for a spell whose difficulty is a formula):
  the mystic action of a magician of the active card (IV-B-2: a cumulative
  action). The spell is one of ``state["spells"]`` his card knows, whose
  frequency this round is not used up (§3.1); its gems and the extra gems
  are paid at once (§3.3, HR-M3); then the adversary's magicians able to pay
  the opposed gems are asked (``pending`` of kind ``"counter"``, §3.4,
  HR-M4), then the power test (best of ``power_dice`` dice + current POU,
  §3.5-6) waits to be rolled like any test (``"check"``), unless the dice
  cannot miss it (II-A-1 under the ``natural_one`` ruling): it is then
  passed at once (``test_certain``), since only its pass counts (§3.7).
* ``{"type": "counter", "fighter", "pay": bool}``: the adversary's answer. A
  countered spell has no effect; its caster's gems stay spent (§3.4 [read]).
* ``{"type": "call", "fighter", "miracle", "fervour"}``: a faithful calls a
  miracle of his cult or a universal one (§4.1), the fervour up to his
  remaining temporary faith (§4.2), spent at once (§4.4 [inferred]); then
  1d6 + current FOI against the difficulty (HR-F2).
* A spell or miracle that succeeds with a duration and a target is recorded
  as a lasting effect (II-C-3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules import magic
from rules.effects import MAX_EFFECTS
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.activation_phase import check_declaration
from rules.game.combat import combat_waits_for
from rules.game.commands import (
    MAX_DIFFICULTY,
    MAX_TEXT,
    Bound,
    CommandKind,
    bool_field,
    gems_field,
    id_field,
    int_field,
    text_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    label_of,
    own_fighter,
    require_no_pending,
    require_phase,
)
from rules.game.follows import follows
from rules.game.table_rolls import check_pending, wait_or_pass
from rules.melee import ability

TURN_PLACE = 50  # its commands' place in legal_actions (X, XI)

SECTION_SPELL = "X"
SECTION_MIRACLE = "XI"

# A spell's duration as printed (rules.magic.DURATION_KINDS) -> a lasting
# effect's (rules.game.upkeep_phase.DURATIONS); an instant spell lasts not.
EFFECT_DURATION = {
    "end_of_round": "end_of_turn",
    "rounds": "turns",
    "game": "permanent",
    "upkeep": "upkeep",
}


def ruling(state: State, name: str) -> str:
    """The house ruling ``name`` in force (its default when not chosen)."""
    return (state.get("house_rulings") or {}).get(
        name, magic.HOUSE_RULINGS[name].default
    )


# --- the game's spells and miracles (setup["spells"], setup["miracles"]) ------


def _whole(value: Any, what: str, low: int = 0, high: int = 99) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not low <= value <= high
    ):
        raise ValueError(f"{what}: a whole number from {low} to {high}.")
    return value


@follows("normal_spells")
def normal_spells(spells: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """``setup["spells"]`` checked: ``{name: {"cost": {element: n},
    "difficulty": int | None, "frequency": int | None, ...}}``; the optional
    ``"duration"`` (``rules.magic.DURATION_KINDS``), ``"rounds"``,
    ``"upkeep"`` (Entretien/X), ``"element"`` are kept. ``ValueError`` for a
    spell that cannot be played."""
    result: dict[str, dict[str, Any]] = {}
    for name, data in dict(spells or {}).items():
        name = str(name).strip()
        if not name or not isinstance(data, Mapping):
            raise ValueError("A spell has a name and its data.")
        raw = data.get("cost") or {}
        magic.gem_count(raw)  # checks the kinds and numbers
        due = {kind: count for kind, count in dict(raw).items() if count}
        # No gem read (a catalogue's "X tenebre", "1 --"): the cost is
        # unknown and entered at each cast, never free.
        cost: dict[str, int] | None = due or None
        difficulty = data.get("difficulty")
        if isinstance(difficulty, str):
            difficulty = difficulty.strip()[:40] or None  # a formula, as printed
        elif difficulty is not None:
            difficulty = _whole(difficulty, f"{name}: difficulty", 1, MAX_DIFFICULTY)
        frequency = data.get("frequency")
        if frequency is not None:
            frequency = _whole(frequency, f"{name}: frequency", 1, 99)
        spell = {"cost": cost, "difficulty": difficulty, "frequency": frequency}
        spell.update(_duration(name, data))
        element = data.get("element") or next(
            (k for k in due if k != magic.NEUTRAL), None
        )
        spell["element"] = element
        if cost is None:
            spell["cost_text"] = str(data.get("cost_text") or "")[:40]
        result[name] = spell
    return result


def _duration(name: str, data: Mapping[str, Any]) -> dict[str, Any]:
    duration = data.get("duration") or "instant"
    if duration not in magic.DURATION_KINDS:
        raise ValueError(f"{name}: a duration is one of {magic.DURATION_KINDS}.")
    found: dict[str, Any] = {"duration": duration}
    if duration == "rounds":
        found["rounds"] = _whole(data.get("rounds"), f"{name}: rounds", 1, 20)
    if duration == "upkeep":
        found["upkeep"] = _whole(data.get("upkeep"), f"{name}: upkeep", 0, 99)
    return found


@follows("normal_miracles")
def normal_miracles(miracles: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """``setup["miracles"]`` checked: ``{name: {"cults": [...] (none:
    universal), "fervour": int | None (chosen), "difficulty": int | formula
    text ("fervour+2") | None, ...}}`` with a duration as a spell's."""
    result: dict[str, dict[str, Any]] = {}
    for name, data in dict(miracles or {}).items():
        name = str(name).strip()
        if not name or not isinstance(data, Mapping):
            raise ValueError("A miracle has a name and its data.")
        cults = data.get("cults") or []
        if isinstance(cults, str):
            cults = [cults]
        fervour = data.get("fervour")
        if fervour is not None:
            fervour = _whole(fervour, f"{name}: fervour", 1, 99)
        difficulty = data.get("difficulty")
        if isinstance(difficulty, int) and not isinstance(difficulty, bool):
            difficulty = _whole(difficulty, f"{name}: difficulty", 1, MAX_DIFFICULTY)
        elif difficulty is not None:
            difficulty = str(difficulty)[:40]
        miracle = {
            "cults": [str(c) for c in cults],
            "fervour": fervour,
            "difficulty": difficulty,
        }
        miracle.update(_duration(name, data))
        result[name] = miracle
    return result


def known(state: State, fighter_id: str, what: str) -> list[str]:
    """The spells (``what="spells"``) or miracles a fighter knows: his card's
    list when it has one, else every one of the game's."""
    card = st.card_of(state, fighter_id)
    listed = card.get(what)
    everything = list(state.get(what) or {})
    if listed is None:
        return everything
    return [name for name in listed if name in everything]


# --- casting a spell (digest §3) -----------------------------------------------


def is_magician(state: State, fighter_id: str) -> bool:
    """A fighter with POU and a reserve of gems."""
    data = state["fighters"][fighter_id]
    return (
        data.get("gems") is not None
        and st.value_of(state, fighter_id, "POU") is not None
    )


def casts_this_round(state: State, fighter_id: str, spell: str) -> int:
    return (state.get("casts") or {}).get(fighter_id, {}).get(spell, 0)


def frequency_left(state: State, fighter_id: str, spell: str) -> bool:
    """Whether the spell's frequency this round is not used up (§3.1)."""
    frequency = state["spells"][spell]["frequency"]
    return frequency is None or casts_this_round(state, fighter_id, spell) < frequency


# Ch. 4 [read] M2: in the combat phase "some fighters" may cast or call;
# which ones [inferred]: those whose card says so, by these abilities. When:
# the convention ``combat_casting`` (rules.magic.CONVENTIONS).
WARRIORS = {
    "spells": ("Guerrier-mage", "Warrior-mage"),
    "miracles": ("Moine-guerrier", "Warrior-monk"),
}


def is_warrior_mystic(state: State, fighter_id: str, what: str) -> bool:
    """Whether the fighter's card says it casts (``what="spells"``) or calls
    (``"miracles"``) in the combat phase."""
    skills = st.card_of(state, fighter_id)["skills"]
    return any(ability(skills, name)[0] for name in WARRIORS[what])


def _in_combat_phase(state: State, side: str, fighter_id: str, what: str) -> bool:
    """A warrior-mage or warrior-monk of a side the combat phase waits on,
    nothing under way (the convention ``combat_casting``)."""
    fighter = state["fighters"][fighter_id]
    return (
        state["phase"] == "combat"
        and not state.get("pending")
        and fighter["side"] == side
        and not fighter["eliminated"]
        and side in combat_waits_for(state)
        and is_warrior_mystic(state, fighter_id, what)
    )


def _may_act_now(
    state: State, side: str, fighter_id: str, what: str = "spells"
) -> bool:
    """A fighter of the card being activated, able to make a mystic action
    (IV-B-2: cumulative, after any exclusive action of the card); in the
    combat phase, a warrior-mage (warrior-monk) whose side is waited on."""
    if state["phase"] == "combat":
        return _in_combat_phase(state, side, fighter_id, what)
    active = state.get("active")
    if state["phase"] != "activation" or not active or active["side"] != side:
        return False
    if fighter_id not in active["fighters"]:
        return False
    if "mystic" in state["acted"].get(fighter_id, []):
        return True
    try:
        check_declaration(state, side, fighter_id, "mystic")
    except IllegalAction:
        return False
    return True


def difficulty_needs(spell: Mapping[str, Any]) -> str:
    """What a spell's difficulty needs at the cast: ``"nothing"`` (a number,
    or a formula of the caster's characteristic), ``"target"`` (a formula of
    the target's), or ``"typed"`` (free, special, not understood: the player
    gives it) (digest §1 "Difficulty forms")."""
    difficulty = spell["difficulty"]
    if isinstance(difficulty, int):
        return "nothing"
    if difficulty is None:
        return "typed"
    parsed = magic.parse_difficulty(difficulty)
    if parsed.kind == "number":
        return "nothing"
    if parsed.kind == "formula" and parsed.base.startswith("caster:"):
        return "nothing"
    if parsed.kind == "formula" and parsed.base.startswith("target:"):
        return "target"
    return "typed"


def spell_difficulty(
    state: State, spell: Mapping[str, Any], caster: str, target: str | None
) -> int | None:
    """The spell's difficulty at this cast: its number, or its formula worked
    out with the caster's or the target's current value (II-A-4); None when
    it cannot be (the player gives it)."""
    difficulty = spell["difficulty"]
    if isinstance(difficulty, int):
        return difficulty
    if difficulty is None:
        return None
    parsed = magic.parse_difficulty(difficulty)
    values: dict[str, int] = {}
    for who, fighter_id in (("caster", caster), ("target", target)):
        if fighter_id is None:
            continue
        for code in st.CHARACTERISTICS:
            value = st.value_of(state, fighter_id, code)
            if value is not None:
                values[f"{who}:{code}"] = int(value)
    found = parsed.resolve(values)
    if found is None or not 1 <= found <= MAX_DIFFICULTY:
        return None
    return found


def castable(state: State, fighter_id: str, *, needs: str = "nothing") -> list[str]:
    """The known spells the magician can pay for, frequency not used up,
    whose difficulty needs ``needs`` (``difficulty_needs``)."""
    if not is_magician(state, fighter_id):
        return []
    gems = state["fighters"][fighter_id]["gems"]
    return [
        name
        for name in known(state, fighter_id, "spells")
        if _can_pay_or_enter(gems, state["spells"][name]["cost"])
        and frequency_left(state, fighter_id, name)
        and difficulty_needs(state["spells"][name]) == needs
        and (
            needs != "nothing"
            or spell_difficulty(state, state["spells"][name], fighter_id, None)
        )
    ]


def _can_pay_or_enter(gems: Mapping[str, int], cost: Any) -> bool:
    """Whether the reserve pays ``cost``; an unknown cost (None), entered
    at the cast, needs one gem at least."""
    if cost is None:
        return magic.gem_count(gems) > 0
    return magic.can_pay(gems, cost)


def unlisted_caster(state: State, fighter_id: str) -> bool:
    """A magician who knows no spell of the game's: his mystic action casts a
    spell named, its gems and difficulty entered (the table's old way, in
    gems)."""
    return is_magician(state, fighter_id) and not known(state, fighter_id, "spells")


def _entered_cost(command: Command, name: str, printed: str) -> dict[str, int]:
    """The gems entered for this cast (``cost``), for a spell whose cost is
    unknown: refused when missing, so a spell is never cast for free."""
    entered = command.get("cost")
    try:
        count = magic.gem_count(entered) if isinstance(entered, Mapping) else 0
    except ValueError:
        count = 0
    if not count:
        if printed:
            raise IllegalAction(
                _(
                    "The cost of {spell} is unknown (printed: {printed}): enter "
                    "the gems it costs for this cast."
                ),
                spell=name,
                printed=printed,
            )
        raise IllegalAction(
            _("The cost of {spell} is unknown: enter the gems it costs for this cast."),
            spell=name,
        )
    if count > MAX_ENTERED_COST:
        raise IllegalAction(
            _("A spell costs at most {count} gems."), count=MAX_ENTERED_COST
        )
    return {k: v for k, v in entered.items() if v}


MAX_ENTERED_COST = 30
UNLISTED = {
    "cost": None,
    "difficulty": None,
    "frequency": None,
    "duration": "instant",
    "element": None,
}


def _extra(command: Command) -> dict[str, int]:
    extra = command.get("extra") or {}
    try:
        count = magic.gem_count(extra)
    except ValueError:
        raise IllegalAction(_("Give the extra gems by element.")) from None
    if count > magic.MAX_EXTRA_GEMS:
        raise IllegalAction(
            _("At most {count} extra gems: the power test rolls at most {dice} dice."),
            count=magic.MAX_EXTRA_GEMS,
            dice=magic.MAX_EXTRA_GEMS + 1,
        )
    return {k: v for k, v in extra.items() if v}


def _target(state: State, command: Command) -> str | None:
    target = command.get("target")
    if target in (None, ""):
        return None
    st.living_fighter(state, target)
    return target


def _require_mystic_phase(state: State) -> None:
    if state["phase"] != "combat":
        require_phase(state, "activation")


def _mystic_asked(
    state: State,
    side: str,
    command: Command,
    qualifies: Callable[[State, str], bool],
    refusal: str,
) -> tuple[str, dict[str, Any]]:
    """The fighter a cast or a call names (its id and its state), in a step
    where spells and miracles are made; ``refusal`` when it ``qualifies``
    not (no magician, no faithful)."""
    _require_mystic_phase(state)
    require_no_pending(state)
    fighter_id = command.get("fighter")
    fighter = own_fighter(state, side, fighter_id)
    if not qualifies(state, fighter_id):
        raise IllegalAction(refusal, fighter=fighter["label"])
    return fighter_id, fighter


def _combat_refusal(state: State, fighter: Mapping[str, Any]) -> None:
    if state["phase"] == "combat":
        raise IllegalAction(
            _(
                "In the combat phase only a warrior-mage casts and a warrior-monk "
                "calls, when its side has the floor: not {fighter} now."
            ),
            fighter=fighter["label"],
        )


def _spell_asked(
    state: State, side: str, command: Command
) -> tuple[dict[str, Any], str, Mapping[str, Any], dict[str, int], str | None]:
    """The magician, the spell's name, the spell, the extra gems and the
    target a cast asks for; ``IllegalAction`` saying why when it may not be
    cast now."""
    fighter_id, fighter = _mystic_asked(
        state,
        side,
        command,
        is_magician,
        _("{fighter} is not a magician with gems of mana."),
    )
    name = command.get("spell")
    if unlisted_caster(state, fighter_id):
        # No spell known: the spell is named, its cost and difficulty entered.
        name = (name or "").strip()[:40]
        if not name:
            raise IllegalAction(_("Name the spell cast."))
        spell = UNLISTED
    elif name not in known(state, fighter_id, "spells"):
        raise IllegalAction(
            _("{fighter} does not know that spell."), fighter=fighter["label"]
        )
    else:
        spell = state["spells"][name]
    if not _may_act_now(state, side, fighter_id, "spells"):
        _combat_refusal(state, fighter)
        check_declaration(state, side, fighter_id, "mystic")  # says why
        raise IllegalAction(_("A spell is cast in its magician's activation."))
    if spell is not UNLISTED and not frequency_left(state, fighter_id, name):
        raise IllegalAction(
            _("{spell} was already cast {count} time(s) this round: its frequency."),
            spell=name,
            count=spell["frequency"],
        )
    extra = _extra(command)
    target = _target(state, command)
    if difficulty_needs(spell) == "target" and target is None:
        raise IllegalAction(
            _("{spell}'s difficulty is worked out from its target: choose one."),
            spell=name,
        )
    return fighter, name, spell, extra, target


def cast_bounds(state: State, side: str, command: Command) -> dict[str, Bound]:
    """The difficulty, asked of the player where the spell's is a formula
    the app does not work out (or unknown)."""
    _fighter, _name, spell, _extra, target = _spell_asked(state, side, command)
    if spell_difficulty(state, spell, command["fighter"], target) is not None:
        return {}
    message = _("Give the spell's difficulty, {low} to {high}.")
    return {"difficulty": Bound(1, MAX_DIFFICULTY, message, required=True)}


def cast(batch: Batch, side: str, command: Command) -> None:
    """A magician casts a spell (digest §3); ``difficulty`` within
    ``cast_bounds``."""
    state = batch.state
    fighter, name, spell, extra, target = _spell_asked(state, side, command)
    fighter_id = command["fighter"]
    difficulty = spell_difficulty(state, spell, fighter_id, target)
    if difficulty is None:
        difficulty = command["difficulty"]
    cost = spell["cost"]
    if cost is None:
        cost = _entered_cost(command, name, spell.get("cost_text", ""))
    try:
        after = magic.pay(fighter["gems"], cost, extra=extra)
    except ValueError:
        raise IllegalAction(
            _("{fighter} has not the gems to pay for {spell} and its extra gems."),
            fighter=fighter["label"],
            spell=name,
        ) from None
    dice = magic.power_dice(magic.gem_count(extra))
    power = st.value_of(state, fighter_id, "POU")
    payload = {
        "fighter": fighter_id,
        "label": fighter["label"],
        "spell": name,
        "cost": dict(cost),
        "extra": extra,
        "gems_before": dict(fighter["gems"]),
        "gems_after": after,
        "target": target,
        "target_label": label_of(state, target) if target else "",
        "difficulty": difficulty,
        "dice": dice,
        "power": power,
        "odds": _fraction(
            magic.power_odds(
                power,
                difficulty,
                dice - 1,
                natural_one=ruling(state, "natural_one"),
            )
        ),
        "declared": state["phase"] == "activation"
        and "mystic" not in state["acted"].get(fighter_id, []),
        "section": SECTION_SPELL,
    }
    batch.emit("spell_cast", payload)
    candidates = counter_candidates(batch.state, side, cost)
    if candidates:
        batch.emit(
            "pending_set",
            {
                "pending": {
                    "kind": "counter",
                    "purpose": "counter",
                    "side": st.other(side),
                    "candidates": candidates,
                    "section": SECTION_SPELL,
                    "roll": None,
                    "context": _cast_context(payload),
                }
            },
        )
        return
    _power_test(batch, side, _cast_context(payload))


def _fraction(value) -> str:
    return f"{value.numerator}/{value.denominator}"


def _cast_context(payload: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("fighter", "spell", "cost", "extra", "target", "difficulty", "dice")
    return {"cast": {key: payload[key] for key in keys}}


def counter_candidates(
    state: State, caster_side: str, cost: Mapping[str, int]
) -> dict[str, dict[str, int]]:
    """The adversary's magicians who can pay the opposed gems: ``{fighter:
    the gems he would pay}`` (digest §3.4; range and line of sight are the
    players' to judge, as for a shot)."""
    found = {}
    for fighter_id in st.fighters_of(state, st.other(caster_side)):
        if not is_magician(state, fighter_id):
            continue
        payment = magic.counter_payment(
            state["fighters"][fighter_id]["gems"],
            cost,
            neutral=ruling(state, "counter_neutral"),
        )
        if payment:
            found[fighter_id] = payment
    return found


def _power_test(batch: Batch, side: str, context: Mapping[str, Any]) -> None:
    cast_ = context["cast"]
    pending = check_pending(
        batch.state,
        side=side,
        fighter=cast_["fighter"],
        characteristic="POU",
        difficulty=cast_["difficulty"],
        dice=cast_["dice"],
        use="spell",
        label=cast_["spell"],
        section=SECTION_SPELL,
        extra={"cast": dict(cast_)},
    )
    # A power test the dice cannot miss under the natural 1 ruling passes at
    # once: its effect follows a pass (§3.6-7), the final result counts for
    # nothing.
    wait_or_pass(batch, _with_ruled_odds(batch.state, pending), "natural_one")


def counter(batch: Batch, side: str, command: Command) -> None:
    """The adversary answers a spell: pay the opposed gems, or let it be."""
    state = batch.state
    pending = state.get("pending")
    if not pending or pending.get("kind") != "counter":
        raise IllegalAction(_("No spell is waiting for an answer."))
    if pending["side"] != side:
        raise IllegalAction(
            _("Side {side} answers this spell."), side=pending["side"].upper()
        )
    fighter_id = command.get("fighter")
    fighter = own_fighter(state, side, fighter_id)
    pay = command.get("pay")
    if pay is None:
        raise IllegalAction(_("Say whether to pay the opposed gems."))
    cast_ = pending["context"]["cast"]
    caster_side = st.other(side)
    if not pay:
        _power_test(batch, caster_side, pending["context"])
        return
    payment = counter_candidates(state, caster_side, cast_["cost"]).get(fighter_id)
    if not payment:
        raise IllegalAction(
            _("{fighter} has not the opposed gems to counter this spell."),
            fighter=fighter["label"],
        )
    after = magic.pay(fighter["gems"], payment)
    batch.emit(
        "spell_countered",
        {
            "fighter": fighter_id,
            "label": fighter["label"],
            "caster": cast_["fighter"],
            "caster_label": label_of(state, cast_["fighter"]),
            "spell": cast_["spell"],
            "paid": payment,
            "gems_after": after,
            "frequency_used": ruling(state, "counter_frequency") == "used",
            "section": SECTION_SPELL,
        },
    )


# --- calling a miracle (digest §4) ----------------------------------------------


def is_faithful(state: State, fighter_id: str) -> bool:
    data = state["fighters"][fighter_id]
    return (
        data.get("faith") is not None
        and st.value_of(state, fighter_id, "FOI") is not None
    )


def callable_miracles(state: State, fighter_id: str) -> list[str]:
    """The miracles of his cult (or universal) the faithful can afford."""
    if not is_faithful(state, fighter_id):
        return []
    cults = st.card_of(state, fighter_id).get("cults") or []
    faith = state["fighters"][fighter_id]["faith"]
    found = []
    for name in known(state, fighter_id, "miracles"):
        miracle = state["miracles"][name]
        low, high = magic.fervour_bounds(miracle["fervour"], faith)
        if magic.can_call(miracle["cults"], cults) and low <= high:
            found.append(name)
    return found


def fervour_bounds_of(state: State, fighter_id: str, name: str) -> tuple[int, int]:
    """The fervour the faithful may give the miracle ``name`` now (§4.2)."""
    return magic.fervour_bounds(
        state["miracles"][name]["fervour"], state["fighters"][fighter_id]["faith"]
    )


def miracle_difficulty(miracle: Mapping[str, Any], fervour: int) -> int | None:
    """A miracle's difficulty: a number, or a formula of the chosen fervour
    (digest §1 "Difficulty forms" [read] M12); None when not understood."""
    difficulty = miracle["difficulty"]
    if isinstance(difficulty, int):
        return difficulty
    if difficulty is None:
        return None
    return magic.parse_difficulty(difficulty).resolve({"fervour": fervour})


def _miracle_asked(
    state: State, side: str, command: Command
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The faithful, the miracle's name and the miracle a call asks for;
    ``IllegalAction`` saying why when it may not be called now."""
    fighter_id, fighter = _mystic_asked(
        state,
        side,
        command,
        is_faithful,
        _("{fighter} is not a faithful with temporary faith."),
    )
    name = command.get("miracle")
    if name not in known(state, fighter_id, "miracles"):
        raise IllegalAction(
            _("{fighter} does not know that miracle."), fighter=fighter["label"]
        )
    miracle = state["miracles"][name]
    cults = st.card_of(state, fighter_id).get("cults") or []
    if not magic.can_call(miracle["cults"], cults):
        raise IllegalAction(_("{miracle} is a miracle of another cult."), miracle=name)
    if not _may_act_now(state, side, fighter_id, "miracles"):
        _combat_refusal(state, fighter)
        check_declaration(state, side, fighter_id, "mystic")
        raise IllegalAction(_("A miracle is called in its faithful's activation."))
    return fighter, name, miracle


def call_bounds(state: State, side: str, command: Command) -> dict[str, Bound]:
    """The fervour the faithful's temporary faith allows (§4.2; none at all:
    not enough faith), and the difficulty, asked of the player where the
    miracle's is not understood."""
    fighter, name, miracle = _miracle_asked(state, side, command)
    low, high = magic.fervour_bounds(miracle["fervour"], fighter["faith"])
    if low > high:
        fervour = Bound(
            low,
            high,
            _("{fighter} has {faith} temporary faith: not enough for {miracle}."),
            {"fighter": fighter["label"], "faith": fighter["faith"], "miracle": name},
            required=True,
        )
        return {"fervour": fervour}
    bounds = {
        "fervour": Bound(
            low,
            high,
            _("The fervour counts {low} to {high}: at most the temporary faith left."),
        )
    }
    chosen = command.get("fervour")
    if miracle_difficulty(miracle, low if chosen is None else chosen) is None:
        bounds["difficulty"] = Bound(
            1,
            MAX_DIFFICULTY,
            _("Give the miracle's difficulty, {low} to {high}."),
            required=True,
        )
    return bounds


def call(batch: Batch, side: str, command: Command) -> None:
    """A faithful calls a miracle (digest §4); ``fervour`` and ``difficulty``
    within ``call_bounds``."""
    state = batch.state
    fighter, name, miracle = _miracle_asked(state, side, command)
    fighter_id = command["fighter"]
    fervour = command.get("fervour")
    if fervour is None:
        fervour = magic.fervour_bounds(miracle["fervour"], fighter["faith"])[0]
    difficulty = miracle_difficulty(miracle, fervour)
    if difficulty is None:
        difficulty = command["difficulty"]
    faith = st.value_of(state, fighter_id, "FOI")
    target = _target(state, command)
    payload = {
        "fighter": fighter_id,
        "label": fighter["label"],
        "miracle": name,
        "fervour": fervour,
        "faith_before": fighter["faith"],
        "faith_after": fighter["faith"] - fervour,
        "target": target,
        "target_label": label_of(state, target) if target else "",
        "difficulty": difficulty,
        "odds": _fraction(
            magic.power_odds(
                faith, difficulty, natural_one=ruling(state, "natural_one")
            )
        ),
        "declared": state["phase"] == "activation"
        and "mystic" not in state["acted"].get(fighter_id, []),
        "house_ruling": "miracle_test",
        "section": SECTION_MIRACLE,
    }
    batch.emit("miracle_called", payload)
    pending = check_pending(
        batch.state,
        side=side,
        fighter=fighter_id,
        characteristic="FOI",
        difficulty=difficulty,
        use="miracle",
        label=name,
        section=SECTION_MIRACLE,
        extra={
            "call": {
                "fighter": fighter_id,
                "miracle": name,
                "fervour": fervour,
                "target": target,
            }
        },
    )
    wait_or_pass(batch, _with_ruled_odds(batch.state, pending), "natural_one")


# --- after the test (called by rules.game.table_rolls) ------------------------


@follows("mystic_success")
def mystic_success(state: State, natural: int, winning: bool) -> bool:
    """A power or faith test's outcome with the ``natural_one`` ruling."""
    return magic.ruled_success(
        natural, winning, natural_one=ruling(state, "natural_one")
    )


@follows("mystic_odds")
def _with_ruled_odds(state: State, pending: dict[str, Any]) -> dict[str, Any]:
    """The waiting test's odds under the ``natural_one`` ruling (a power or
    faith test: cast or called from the list, or typed at the table)."""
    natural_one = ruling(state, "natural_one")
    odds = magic.power_odds(
        pending["value"],
        pending["difficulty"],
        pending["dice"] - 1,
        natural_one=natural_one,
    )
    ruled = {**pending, "odds": _fraction(odds)}
    if natural_one != magic.HOUSE_RULINGS["natural_one"].default:
        # Read by a six's choice odds (table_rolls.check_choice).
        ruled["natural_one"] = natural_one
    return ruled


@follows("mystic_finished")
def mystic_finished(batch: Batch, context: Mapping[str, Any], success: bool) -> None:
    """A power test or a miracle's test is rolled: on a success, its lasting
    effect (II-C-3); on a failed spell, the gems back if the ruling says so
    (HR-M3)."""
    state = batch.state
    if "cast" in context:
        done, data, kind = context["cast"], state["spells"], "spell"
        name = done["spell"]
    else:
        done, data, kind = context["call"], state["miracles"], "miracle"
        name = done["miracle"]
    fighter_id = done["fighter"]
    if (
        kind == "spell"
        and not success
        and ruling(state, "gems_on_failure") == ("refunded")
    ):
        gems = dict(state["fighters"][fighter_id]["gems"])
        for part in (done["cost"], done["extra"]):
            for element, count in part.items():
                if element != magic.NEUTRAL:
                    gems[element] = gems.get(element, 0) + count
        neutral = done["cost"].get(magic.NEUTRAL, 0) + done["extra"].get(
            magic.NEUTRAL, 0
        )
        if neutral:
            element = (data.get(name) or {}).get("element") or next(
                (k for k in done["cost"] if k != magic.NEUTRAL), magic.ELEMENTS[0]
            )
            gems[element] = gems.get(element, 0) + neutral
        batch.emit(
            "fighter_changed",
            {
                "fighter": fighter_id,
                "label": label_of(state, fighter_id),
                "changes": {"gems": gems},
                "section": SECTION_SPELL,
                "house_ruling": "gems_on_failure",
            },
        )
        return
    if not success or not done.get("target") or name not in data:
        return  # a spell named at the cast (unlisted): no lasting effect known
    item = data[name]
    duration = EFFECT_DURATION.get(item["duration"])
    target = done["target"]
    if duration is None or state["fighters"][target]["eliminated"]:
        return
    effects = state.get("effects", [])
    if len(effects) >= MAX_EFFECTS:
        return
    effect = {
        "id": f"e{len(effects) + 1}-{state['turn']}-{target}",
        "name": name,
        "kind": kind,
        "fighter": target,
        "side": state["fighters"][fighter_id]["side"],
        "duration": duration,
        "turn": state["turn"],
        "turns_left": item.get("rounds") if duration == "turns" else None,
        "cost": item.get("upkeep") if duration == "upkeep" else None,
        "resource": ("faith" if kind == "miracle" else "mana")
        if duration == "upkeep"
        else None,
        "caster": fighter_id if duration == "upkeep" else None,
        "active": False,
        "roll": None,
    }
    if kind == "spell" and duration == "upkeep":
        effect["element"] = item.get("element")
    while any(e["id"] == effect["id"] for e in effects):
        effect["id"] += "'"
    batch.emit(
        "effect_recorded",
        {"effect": effect, "label": label_of(state, target), "section": "II-C-3"},
    )


# --- the upkeep (IV-D-2): new temporary faith, then mana recovered ---------------


def skill_value(state: State, fighter_id: str, *names: str) -> int:
    """X of the fighter's skill ``names``/X (the highest; 0 without it)."""
    skills = st.card_of(state, fighter_id)["skills"]
    best = 0
    for name in names:
        found, value = ability(skills, name)
        if found:
            best = max(best, value)
    return best


def mastered_elements(state: State, fighter_id: str) -> list[str]:
    """The elements a magician masters: his card's, else those his reserve
    was given at the table (HR-M1)."""
    return list(
        st.card_of(state, fighter_id).get("elements")
        or state["fighters"][fighter_id].get("elements")
        or []
    )


def mana_maximum(state: State, fighter_id: str) -> int | None:
    """The most gems the magician's reserve holds (HR-M1, ``mana_maximum``):
    the reserve it started with (or was first given at the table), its POU,
    or no maximum (None)."""
    chosen = ruling(state, "mana_maximum")
    if chosen == "none":
        return None
    if chosen == "power":
        return st.base_value(state, fighter_id, "POU") or 0
    return state["fighters"][fighter_id].get("gems_max") or 0


@follows("recovery")
def recovery(state: State, fighter_id: str, gains: Any) -> dict[str, Any]:
    """The mana line of a magician counted in gems (IV-D-2, X-G-1).

    ``gains``: the gems recovered, by element (``mana_recovery`` "entered",
    HR-M2: typed at the table); with "recovery_only", Recovery/X's X gems of
    an element he masters (M4: "whatever the roll"), the first he masters
    unless another is given. Gains are of elements the magician masters and
    never take the reserve above its maximum (M4, M6); what is beyond is lost.
    """
    fighter = state["fighters"][fighter_id]
    mastered = mastered_elements(state, fighter_id)
    maximum = mana_maximum(state, fighter_id)
    x = skill_value(state, fighter_id, "Récupération", "Recovery")
    if gains is not None and not isinstance(gains, Mapping):
        raise IllegalAction(_("Give the gems by element."))
    gains = {k: v for k, v in dict(gains or {}).items() if v}
    if ruling(state, "mana_recovery") == "recovery_only":
        if not gains and x and mastered:
            gains = {mastered[0]: x}
        try:
            count = magic.gem_count(gains)
        except ValueError:
            raise IllegalAction(_("Give the gems by element.")) from None
        if count != x:
            raise IllegalAction(
                _("{fighter} recovers only Recovery/X: {count} gem(s)."),
                fighter=fighter["label"],
                count=x,
            )
    try:
        after = magic.recover(
            fighter["gems"], gains, mastered=mastered, maximum=maximum
        )
    except ValueError:
        raise IllegalAction(
            _("{fighter} recovers gems of the elements he masters only: {elements}."),
            fighter=fighter["label"],
            elements=", ".join(mastered) or "-",
        ) from None
    return {
        "reserve": "gems",
        "before": dict(fighter["gems"]),
        "after": after,
        "high": maximum,
        "recovery": x,
        "typed": bool(gains),
        "house_ruling": "mana_recovery",
        "section": "X-G-1",
    }


@follows("new_faith_bounds")
def new_faith_bounds(state: State, fighter_id: str) -> dict[str, Any]:
    """The temporary faith line's bounds (XI-B-2, HR-F1): at most the card's
    FOI, plus what Piety/X keeps of the faith left (M8 [read]); with the
    ruling ``temporary_faith`` "printed", the card's FOI (and Piety's part)
    when nothing is typed."""
    printed = st.base_value(state, fighter_id, "FOI") or 0
    left = state["fighters"][fighter_id].get("faith") or 0
    piety = skill_value(state, fighter_id, "Piété", "Piety")
    kept = magic.temporary_faith(0, left, piety=piety)
    found: dict[str, Any] = {"high": printed + kept, "piety": piety}
    if ruling(state, "temporary_faith") == "printed":
        found["printed"] = printed + kept
    return found


# --- what a side may do (rules.game.legal_actions) ------------------------------


def _candidates(state: State, side: str) -> list[str]:
    """Who may make a mystic action now: the active card's fighters, or in
    the combat phase the side's fighters (its warrior-mages and -monks)."""
    if state["phase"] == "combat":
        return st.fighters_of(state, side)
    return list((state.get("active") or {}).get("fighters", []))


def _mystics_now(state: State, side: str, what: str) -> list[str]:
    """The side's fighters of the active card who may cast (``what``:
    "spells") or call ("miracles") now, alive, with nothing pending."""
    if state["phase"] not in ("activation", "combat") or state.get("pending"):
        return []
    return [
        fighter_id
        for fighter_id in _candidates(state, side)
        if not state["fighters"][fighter_id]["eliminated"]
        and _may_act_now(state, side, fighter_id, what)
    ]


def legal_cast(state: State, side: str) -> list[dict[str, Any]]:
    """Each magician of the active card who may cast now, with the spells he
    can pay for whose frequency is not used up; the extra gems are typed."""
    entries = []
    for fighter_id in _mystics_now(state, side, "spells"):
        if unlisted_caster(state, fighter_id):
            # The spell named, its gems and difficulty entered: no choices.
            if magic.gem_count(state["fighters"][fighter_id]["gems"]):
                entries.append({"type": "cast", "fighter": fighter_id})
            continue
        spells = castable(state, fighter_id)
        if spells:
            entries.append(
                {"type": "cast", "fighter": fighter_id, "choices": {"spell": spells}}
            )
        # A difficulty worked out from the target's characteristic: a target
        # is chosen with it.
        spells = castable(state, fighter_id, needs="target")
        if spells:
            everyone = [f for s in st.SIDES for f in st.fighters_of(state, s)]
            entries.append(
                {
                    "type": "cast",
                    "fighter": fighter_id,
                    "choices": {"spell": spells, "target": everyone},
                }
            )
    return entries


def legal_counter(state: State, side: str) -> list[dict[str, Any]]:
    """The magicians asked whether to counter the spell waiting."""
    pending = state.get("pending")
    if not pending or pending.get("kind") != "counter" or pending["side"] != side:
        return []
    cost = pending["context"]["cast"]["cost"]
    payable = counter_candidates(state, st.other(side), cost)
    return [
        {
            "type": "counter",
            "fighter": fighter_id,
            "choices": {"pay": [True, False] if fighter_id in payable else [False]},
        }
        for fighter_id in pending["candidates"]
        if not state["fighters"][fighter_id]["eliminated"]
    ]


def legal_call(state: State, side: str) -> list[dict[str, Any]]:
    """Each faithful of the active card who may call a miracle now."""
    entries = []
    for fighter_id in _mystics_now(state, side, "miracles"):
        miracles = [
            name
            for name in callable_miracles(state, fighter_id)
            if state["miracles"][name]["difficulty"] is not None
            and miracle_difficulty(
                state["miracles"][name],
                magic.fervour_bounds(
                    state["miracles"][name]["fervour"],
                    state["fighters"][fighter_id]["faith"],
                )[0],
            )
            is not None
        ]
        if miracles:
            entries.append(
                {
                    "type": "call",
                    "fighter": fighter_id,
                    "choices": {"miracle": miracles},
                }
            )
    return entries


# --- the commands of this phase, each declared once (rules.game.commands) ---


class Cast(CommandKind):
    """X: a magician's spell; ``extra``: the mastery gems, one more die each;
    ``difficulty``: typed when the spell's is a formula; ``cost``: entered
    when the spell's is unknown."""

    type = "cast"
    section = "X"
    fields = (
        id_field("fighter"),
        text_field("spell", MAX_TEXT, required=True),
        gems_field("extra", "extra:", magic.MAX_EXTRA_GEMS),
        id_field("target", required=False),
        int_field("difficulty", 1, MAX_DIFFICULTY, required=False),
        # Entered at the cast: a spell whose cost the sources do not give.
        gems_field("cost", "cost:", 30),
    )
    legal = staticmethod(legal_cast)
    bounds = staticmethod(cast_bounds)
    apply = staticmethod(cast)


class Counter(CommandKind):
    """X: the adversary's magician pays the opposed gems (``pay``) or not."""

    type = "counter"
    section = "X"
    fields = (id_field("fighter"), bool_field("pay"))
    legal = staticmethod(legal_counter)
    apply = staticmethod(counter)


class Call(CommandKind):
    """XI: a faithful's miracle, with its ``fervour`` (temporary faith)."""

    type = "call"
    section = "XI"
    fields = (
        id_field("fighter"),
        text_field("miracle", MAX_TEXT, required=True),
        int_field("fervour", 1, 99, required=False),
        id_field("target", required=False),
        int_field("difficulty", 1, MAX_DIFFICULTY, required=False),
    )
    legal = staticmethod(legal_call)
    bounds = staticmethod(call_bounds)
    apply = staticmethod(call)


__all__ = [
    "call",
    "cast",
    "castable",
    "counter",
    "counter_candidates",
    "legal_call",
    "legal_cast",
    "legal_counter",
    "mystic_finished",
    "mystic_success",
    "normal_miracles",
    "normal_spells",
]
