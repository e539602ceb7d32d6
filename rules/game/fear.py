"""Fear on a charge (IX; chapter IX is not among the seeds): the Courage tests.

What the sources establish (``rules-data/melee-sources.md`` §3 and
``magic-faith-sources.md`` §5; [read] unless marked):

- "It is a characteristic test, 1d6 + COU, with the difficulty set by the
  FEAR (PEU) value faced" (S11 War Cry / Dreadful, S14); "When several
  frightening enemies are involved, the highest FEAR is used" (S11 Dreadful);
  it is rolled "when charging a more frightening fighter and when charged by
  frightening fighters" (M10). Failing it: the fighter is in rout (S11
  Rallying Cry).
- "Immunity / Fear: immune to all fear. Righteous also have it." (S11, S12
  "Immunité/Peur"); the living dead "have Immunity/Fear, except against
  Hyperians" (S11): a living-dead fighter tests against the fear of its
  Hyperian adversaries only (a Hyperian is read on the card as the ability
  "Hypérien"/"Hyperian": the sources do not say how one is told apart).
- "Living-Dead: everyone treats them as frightening, even fighters with
  higher FEAR" (S11): a living-dead adversary calls for the test whatever
  the tester's courage (a test the dice cannot miss is recorded without a
  roll).
- "War Cry / X: while charging, COU is replaced by FEAR X. [...] if he has
  it twice, the higher X counts" (S11, S14): the charger tests with X, and
  only against a higher PEUR; those it charges face PEUR X [inferred: a
  charger with FEAR X is a frightening charger].
- Fighters with PEUR "test only against a higher FEAR, using their FEAR as
  COU" ([inferred] M10, M11; [C4] M18).
- Immunity after a passed test: the house ruling ``fear_immunity`` (default
  "game": not tested again by that PEUR or a lower one for the rest of the
  game, [C4] M18, [inferred] C3 War Cry; or "turn", or "none").
- A charger that fails: the house ruling ``failed_charge`` (default
  "no_charge": the charge does not happen, the fighter is routed where it
  stands, [C4] M18 "it stays in place"; or "routed_in_contact").

- "Dreadful: 2d6, keep the lower [...] It applies even if the Dreadful
  fighter's FEAR is not the one used" (M10, S11): the test rolls two dice and
  keeps the lower (``rules.several_dice.DiceTest.keep_lowest``). No French
  name was found in the sources (melee-sources.md §1); "Terrifiant" is read
  as it, and "Dreadful" as printed in English. Its cancelling of a "roll
  several, keep the best" effect is not played: no such effect is modelled.

A fighter that must test is prompted on its own side's phone with its odds
(``state["pending"]``); a success the dice cannot miss is recorded without a
roll (a ``courage_certain`` event); a failure routs it.
"""

from __future__ import annotations

import copy
from typing import Any

from rules import odds
from rules.game import state as st
from rules.game.common import Batch, State, fraction_text, label_of
from rules.game.follows import follows, then
from rules.game.rallying_cry import courage_bonus
from rules.game.table_rolls import check_pending
from rules.melee import HOUSE_RULINGS, ability
from rules.several_dice import dice_test_success
from rules.tactics import parse_skill

SECTION = "IX"

IMMUNE_ABILITIES = ("Juste", "Righteous", "Mort-vivant", "Living-Dead")
LIVING_DEAD = ("Mort-vivant", "Living-Dead")
WAR_CRY = "Cri de guerre"
DREADFUL = ("Terrifiant", "Dreadful")
HYPERIAN = ("Hypérien", "Hyperian")


def _ruling(state: State, name: str) -> str:
    return (state.get("house_rulings") or {}).get(name, HOUSE_RULINGS[name].default)


def _has(skills: list[str], names: tuple[str, ...]) -> bool:
    return any(ability(skills, name)[0] for name in names)


def fear_immune(skills: list[str]) -> bool:
    """Immune to all fear: Immunité/Peur (S11, S12), Righteous (Juste, S11),
    the living dead (Mort-vivant, S11)."""
    for text in skills:
        skill = parse_skill(str(text))
        if skill.key == "immunite" and str(skill.value or "").casefold() == "peur":
            return True
    return _has(skills, IMMUNE_ABILITIES)


def _immune_but_to_hyperians(skills: list[str]) -> bool:
    """Immune to fear only as a living dead (S11: "Immunity/Fear, except
    against Hyperians"), not by Immunité/Peur or Juste as well."""
    if not _has(skills, LIVING_DEAD):
        return False
    for text in skills:
        skill = parse_skill(str(text))
        if skill.key == "immunite" and str(skill.value or "").casefold() == "peur":
            return False
    return not _has(skills, ("Juste", "Righteous"))


def war_cry(skills: list[str]) -> int | None:
    """Cri de guerre/X: X (the highest when printed twice, S14), or None."""
    found, value = ability(skills, WAR_CRY)
    return value if found and value > 0 else None


def fear_of(state: State, fighter_id: str, *, charging: bool = False) -> int | None:
    """The PEUR ``fighter_id`` frightens with: its card's, or Cri de
    guerre/X's X while it charges (the higher of the two)."""
    fear = st.value_of(state, fighter_id, "PEUR")
    if charging:
        cry = war_cry(st.card_of(state, fighter_id)["skills"])
        if cry is not None:
            fear = cry if fear is None else max(int(fear), cry)
    return None if fear is None else int(fear)


def immune_to(state: State, fighter_id: str, fear: int) -> bool:
    """Whether a Courage test passed earlier spares ``fighter_id`` a test
    against ``fear`` (the house ruling ``fear_immunity``)."""
    how_long = _ruling(state, "fear_immunity")
    resisted = (state.get("fear_resisted") or {}).get(fighter_id)
    if how_long == "none" or not resisted:
        return False
    if how_long == "turn":
        return resisted["turn"] == state["turn"] and fear <= resisted["turn_fear"]
    return fear <= resisted["fear"]


@follows("resisted_after")
def resisted_after(state: State, fighter_id: str, fear: int) -> dict[str, Any]:
    """The fighter's record of fears resisted once it passed a test against
    ``fear``: the highest of the game and of this turn (read by ``immune_to``)."""
    before = (state.get("fear_resisted") or {}).get(fighter_id)
    turn = state["turn"]
    if not before:
        return {"fear": fear, "turn": turn, "turn_fear": fear}
    turn_fear = before["turn_fear"] if before["turn"] == turn else 0
    return {
        "fear": max(before["fear"], fear),
        "turn": turn,
        "turn_fear": max(turn_fear, fear),
    }


def courage_needed(
    state: State,
    fighter_id: str,
    feared: list[str],
    *,
    charging: bool = False,
    feared_charging: bool = False,
    spared: bool = False,
) -> dict | None:
    """The Courage test ``fighter_id`` makes against ``feared`` adversaries,
    or None: ``{"fighter", "side", "courage", "characteristic", "fear",
    "feared", "living_dead", "dreadful", "odds"}``. ``charging``: the fighter
    charges them; ``feared_charging``: they charge it. ``spared``: a test an
    earlier one spares (``fear_immunity``) comes back with ``"spared": True``
    instead of None."""
    skills = st.card_of(state, fighter_id)["skills"]
    if fear_immune(skills):
        if not _immune_but_to_hyperians(skills):
            return None
        # The living dead: "Immunity/Fear, except against Hyperians" (S11).
        feared = [f for f in feared if _has(st.card_of(state, f)["skills"], HYPERIAN)]
        if not feared:
            return None
    own_fear = fear_of(state, fighter_id, charging=charging)
    courage = st.value_of(state, fighter_id, "COU")
    characteristic = "COU"
    if own_fear is not None:
        # A fearsome fighter (or a war cry) tests with its PEUR (inferred M10).
        courage = own_fear
        if st.value_of(state, fighter_id, "PEUR") is not None:
            characteristic = "PEUR"
    if courage is None:
        return None
    fears = [(fear_of(state, f, charging=feared_charging), f) for f in feared]
    fears = [(v, f) for v, f in fears if v is not None]
    if not fears:
        return None
    fear, source = max(fears, key=lambda item: item[0])
    living_dead = [
        f for _v, f in fears if _has(st.card_of(state, f)["skills"], LIVING_DEAD)
    ]
    if fear <= courage and not living_dead:
        return None
    if immune_to(state, fighter_id, fear):
        if not spared:
            return None
        return {
            "fighter": fighter_id,
            "side": state["fighters"][fighter_id]["side"],
            "fear": fear,
            "feared": source,
            "resisted": state["fear_resisted"][fighter_id][
                "turn_fear" if _ruling(state, "fear_immunity") == "turn" else "fear"
            ],
            "spared": True,
        }
    dreadful = any(_has(st.card_of(state, f)["skills"], DREADFUL) for _v, f in fears)
    # Cri de ralliement: "+1 to Courage tests until the end of the round" (§5):
    # the test's value, not whether it is taken.
    cry = courage_bonus(state, state["fighters"][fighter_id]["side"])
    courage = int(courage) + cry
    return {
        "fighter": fighter_id,
        "side": state["fighters"][fighter_id]["side"],
        "rallying_cry": cry,
        "courage": int(courage),
        "characteristic": characteristic,
        "fear": fear,
        "feared": source,
        "living_dead": bool(living_dead) and fear <= courage - cry,
        "dreadful": dreadful,
        "odds": (
            dice_test_success(int(courage), fear, 2, keep_lowest=True)
            if dreadful
            else odds.test_success(int(courage), fear)
        ),
    }


def charge_fear_tests(
    batch: Batch,
    charger: str,
    targets: list[str],
    *,
    contacts_before: list | None = None,
    engaged_before: list | None = None,
) -> None:
    """After a charge: the charger's test against the charged, then each
    charged fighter's against the charger (one after the other).
    ``contacts_before``, ``engaged_before``: the contacts and the fighters
    engaged this phase before the charge, put back when the charger fails
    under ``failed_charge`` "no_charge"."""
    state = batch.state
    needed = [courage_needed(state, charger, targets, charging=True, spared=True)]
    needed += [
        courage_needed(state, t, [charger], feared_charging=True, spared=True)
        for t in targets
    ]
    queue = []
    for test in needed:
        if not test:
            continue
        if test.get("spared"):  # a passed test spares it: said, not asked
            batch.emit(
                "courage_spared",
                {
                    "fighter": test["fighter"],
                    "label": label_of(state, test["fighter"]),
                    "side": test["side"],
                    "fear": test["fear"],
                    "feared": test["feared"],
                    "feared_label": label_of(state, test["feared"]),
                    "resisted": test["resisted"],
                    "section": SECTION,
                    "house_ruling": "fear_immunity",
                },
            )
            continue
        if test["fighter"] == charger:
            test["charge"] = {
                "targets": list(targets),
                "contacts_before": copy.deepcopy(contacts_before),
                "engaged_before": None
                if engaged_before is None
                else list(engaged_before),
            }
        if test["odds"] == 1:
            batch.emit("courage_certain", _certain_payload(batch.state, test))
        else:
            queue.append(_pending(batch.state, test))
    if queue:
        first, *rest = queue
        first["context"]["queue"] = rest
        batch.emit("pending_set", {"pending": first})


def _certain_payload(state: State, test: dict[str, Any]) -> dict[str, Any]:
    payload = {
        "fighter": test["fighter"],
        "label": label_of(state, test["fighter"]),
        "side": test["side"],
        "courage": test["courage"],
        "fear": test["fear"],
        "feared": test["feared"],
        "feared_label": label_of(state, test["feared"]),
        "odds": "1/1",
        "section": SECTION,
    }
    if test["characteristic"] != "COU":
        payload["characteristic"] = test["characteristic"]
    if test["living_dead"]:
        payload["living_dead"] = True
    if test.get("rallying_cry"):
        payload["rallying_cry"] = test["rallying_cry"]
    return payload


def _pending(state: State, test: dict[str, Any]) -> dict[str, Any]:

    extra: dict[str, Any] = {"prompted": True, "feared": test["feared"], "fear": True}
    if "charge" in test:
        extra["charge"] = test["charge"]
    if test["dreadful"]:
        extra["dreadful"] = True
    pending = check_pending(
        state,
        side=test["side"],
        fighter=test["fighter"],
        characteristic=test["characteristic"],
        difficulty=test["fear"],
        dice=2 if test["dreadful"] else 1,
        use="courage",
        section=SECTION,
        extra=extra,
    )
    cry = test.get("rallying_cry", 0)
    if pending["value"] + cry != test["courage"]:  # Cri de guerre/X: X replaces COU
        pending["context"]["war_cry"] = test["courage"] - cry
    if pending["value"] != test["courage"]:
        pending["value"] = test["courage"]
        pending["context"]["current"] = test["courage"]
    if cry:  # Cri de ralliement: +1 this turn (§5)
        pending["context"]["rallying_cry"] = cry
    if test["dreadful"]:  # Terrifiant: two dice, the lower kept (S11)
        pending["keep_lowest"] = True
        pending["section"] = SECTION
    pending["odds"] = fraction_text(test["odds"])
    return pending


@follows("courage_finished")
def courage_finished(batch: Batch, context: dict[str, Any], success: bool) -> None:
    """A prompted Courage test is rolled: a failure routs the fighter (§3
    [read]); a charger that fails follows ``failed_charge``; the next test
    waiting after it comes next (none when the charge did not happen)."""
    fighter_id = context["fighter"]
    state = batch.state
    charge = context.get("charge")
    no_charge = (
        not success and charge and _ruling(state, "failed_charge") == "no_charge"
    )
    if not success:
        changes: dict[str, Any] = {"routed": True}
        payload: dict[str, Any] = {
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
            "changes": changes,
            "section": SECTION,
        }
        if charge:
            payload["house_ruling"] = "failed_charge"
        if no_charge:
            changes["charged"] = False
        if no_charge and charge["contacts_before"] is not None:
            undone: dict[str, Any] = {
                "contacts": copy.deepcopy(charge["contacts_before"] or []),
                "reason": "failed_charge",
                "house_ruling": "failed_charge",
            }
            if charge.get("engaged_before") is not None:
                # Those it would have charged are not engaged by it (the
                # disengagement reads "engaged this phase").
                undone["engaged"] = list(charge["engaged_before"])
            batch.emit("contacts_changed", undone)
        if state["fighters"][fighter_id]["routed"]:
            changes.pop("routed")
        batch.emit("fighter_changed", payload)
        if no_charge:
            then("end_failed_charge")(batch, fighter_id)
    queue = [] if no_charge else copy.deepcopy(list(context.get("queue") or []))
    if queue:
        first, *rest = queue
        first["context"]["queue"] = rest
        batch.emit("pending_set", {"pending": first})


__all__ = [
    "charge_fear_tests",
    "courage_finished",
    "courage_needed",
    "fear_immune",
    "fear_of",
    "immune_to",
    "resisted_after",
    "war_cry",
]
