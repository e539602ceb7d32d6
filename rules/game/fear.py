"""Fear on a charge (IX; chapter IX is not among the seeds): the Courage tests.

melee-sources.md §3 [read]: "It is a characteristic test, 1d6 + COU, with the
difficulty set by the FEAR (PEU) value faced" (S11 War Cry / Dreadful, S14);
"When several frightening enemies are involved, the highest FEAR is used"
(S11 Dreadful); it is rolled "when charging a more frightening opponent and
when being charged by one" (S11). Failing it: "The fighter is in rout"
(S11 Rallying Cry). "Immunity / Fear: immune to all fear" (S11, S12).

A fighter that charges, or is charged by, adversaries whose highest PEUR is
above its COU makes the test against that PEUR, prompted on its own side's
phone with its odds (``state["pending"]``); a success the dice cannot miss is
recorded without a roll (a ``courage_certain`` event); a failure routs it. A
fighter without COU (a fearsome one, with PEUR) makes none.
"""

from __future__ import annotations

import copy
from typing import Any

from rules import odds
from rules.game import state as st
from rules.game.common import Batch, State, label_of
from rules.tactics import parse_skill

SECTION = "IX"


def fear_immune(skills: list[str]) -> bool:
    """Immunité/Peur (§3 [read] S11, S12: "immune to all fear")."""
    for text in skills:
        skill = parse_skill(str(text))
        if skill.key == "immunite" and str(skill.value or "").casefold() == "peur":
            return True
    return False


def courage_needed(state: State, fighter_id: str, feared: list[str]) -> dict | None:
    """The Courage test ``fighter_id`` makes against ``feared`` adversaries,
    or None: ``{"fighter", "side", "courage", "fear", "feared", "odds"}``."""
    courage = st.value_of(state, fighter_id, "COU")
    if courage is None or fear_immune(st.card_of(state, fighter_id)["skills"]):
        return None
    fears = [(st.value_of(state, f, "PEUR"), f) for f in feared]
    fears = [(int(v), f) for v, f in fears if v is not None]
    if not fears:
        return None
    fear, source = max(fears, key=lambda item: item[0])
    if fear <= courage:
        return None
    return {
        "fighter": fighter_id,
        "side": state["fighters"][fighter_id]["side"],
        "courage": courage,
        "fear": fear,
        "feared": source,
        "odds": odds.test_success(courage, fear),
    }


def charge_fear_tests(batch: Batch, charger: str, targets: list[str]) -> None:
    """After a charge: the charger's test against the charged, then each
    charged fighter's against the charger (one after the other)."""
    state = batch.state
    needed = [courage_needed(state, charger, targets)]
    needed += [courage_needed(state, t, [charger]) for t in targets]
    tests = [n for n in needed if n]
    queue = []
    for test in tests:
        if test["odds"] == 1:
            batch.emit(
                "courage_certain",
                {
                    "fighter": test["fighter"],
                    "label": label_of(state, test["fighter"]),
                    "side": test["side"],
                    "courage": test["courage"],
                    "fear": test["fear"],
                    "feared": test["feared"],
                    "feared_label": label_of(state, test["feared"]),
                    "odds": "1/1",
                    "section": SECTION,
                },
            )
        else:
            queue.append(_pending(state, test))
    if queue:
        first, *rest = queue
        first["context"]["queue"] = rest
        batch.emit("pending_set", {"pending": first})


def _pending(state: State, test: dict[str, Any]) -> dict[str, Any]:
    from rules.game.table_rolls import check_pending

    return check_pending(
        state,
        side=test["side"],
        fighter=test["fighter"],
        characteristic="COU",
        difficulty=test["fear"],
        use="courage",
        section=SECTION,
        extra={"prompted": True, "feared": test["feared"], "fear": True},
    )


def courage_finished(batch: Batch, context: dict[str, Any], success: bool) -> None:
    """A prompted Courage test is rolled: a failure routs the fighter (§3
    [read]); the next test waiting after it comes next."""
    fighter_id = context["fighter"]
    if not success and not batch.state["fighters"][fighter_id]["routed"]:
        batch.emit(
            "fighter_changed",
            {
                "fighter": fighter_id,
                "label": label_of(batch.state, fighter_id),
                "changes": {"routed": True},
                "section": SECTION,
            },
        )
    queue = copy.deepcopy(list(context.get("queue") or []))
    if queue:
        first, *rest = queue
        first["context"]["queue"] = rest
        batch.emit("pending_set", {"pending": first})


__all__ = ["charge_fear_tests", "courage_finished", "courage_needed", "fear_immune"]
