"""The upkeep phase checklist (IV-D)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.upkeep import (
    LastingEffect,
    UpkeepFighter,
    UpkeepStep,
    check_tick,
    next_item,
    upkeep_checklist,
)

FIGHTERS = [
    UpkeepFighter("Templar", stunned=True, charged=True),
    UpkeepFighter("Priest", faithful=True, routed=True),
    UpkeepFighter("Mage", magician=True, faithful=False),
    UpkeepFighter("Troll", skills=("Régénération/5",)),
    UpkeepFighter("Captain", skills=("Renfort", "Commandement/10")),
]
EFFECTS = [
    LastingEffect("Rafale", "Mage", kind="spell", upkeep=2),
    LastingEffect("Poison", "Assassin", harmful=True, target="Templar"),
    LastingEffect("Bénédiction", "Priest", kind="miracle", upkeep=1),
]


def steps(items):
    return [item.step for item in items]


def test_IV_D_the_checklist_follows_the_order_of_the_upkeep_phase():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    assert steps(items) == [
        UpkeepStep.RALLY,
        UpkeepStep.FAITH,
        UpkeepStep.MANA,
        UpkeepStep.HARMFUL,
        UpkeepStep.PASSIVE,
        UpkeepStep.OTHER,
        UpkeepStep.OTHER,
        UpkeepStep.RETURN,
        UpkeepStep.MARKERS,
        UpkeepStep.MARKERS,
    ]
    assert [item.section for item in items][:4] == [
        "IV-D-1",
        "IV-D-2",
        "IV-D-2",
        "IV-D-3-1",
    ]


def test_IV_D_1_each_routed_fighter_gets_a_rally():
    (item,) = [i for i in upkeep_checklist(FIGHTERS) if i.step is UpkeepStep.RALLY]
    assert item.fighter == "Priest"
    assert "IX-E" in item.label_fr


def test_IV_D_2_faith_comes_before_mana_whatever_the_fighters_order():
    fighters = [
        UpkeepFighter("Mage", magician=True),
        UpkeepFighter("Priest", faithful=True),
    ]
    assert steps(upkeep_checklist(fighters)) == [UpkeepStep.FAITH, UpkeepStep.MANA]


def test_IV_D_3_1_harmful_effects_come_before_any_other():
    items = upkeep_checklist(
        [UpkeepFighter("Troll", skills=("Régénération/4",))],
        [LastingEffect("Poison", "Assassin", harmful=True)],
    )
    assert steps(items) == [UpkeepStep.HARMFUL, UpkeepStep.PASSIVE]


def test_II_C_3_an_entretien_spell_is_paid_in_gems_and_a_miracle_in_faith():
    items = {i.effect: i for i in upkeep_checklist([], EFFECTS)}
    assert (items["Rafale"].cost, items["Rafale"].resource) == (2, "gems")
    assert (items["Bénédiction"].cost, items["Bénédiction"].resource) == (
        1,
        "temporary_faith",
    )
    assert "entretien 2 gemme(s)" in items["Rafale"].label_fr


def test_IV_D_3_5_reinforcements_come_after_the_other_effects():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    renfort = next(i for i in items if i.effect == "Renfort")
    assert renfort.step is UpkeepStep.RETURN
    assert renfort.section == "IV-D-3-5"


def test_IV_D_3_6_charged_and_stunned_markers_are_removed_last():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    assert [i.label_en for i in items[-2:]] == [
        "Remove the charged marker of Templar",
        "Remove the stunned marker of Templar",
    ]


def test_skills_without_an_upkeep_give_no_item():
    assert (
        upkeep_checklist([UpkeepFighter("Captain", skills=("Commandement/10",))]) == []
    )


def test_the_skill_classification_can_be_supplied():
    items = upkeep_checklist(
        [UpkeepFighter("Troll", skills=("Régénération/4",))],
        skill_steps={"Régénération": UpkeepStep.ACTIVE},
    )
    assert steps(items) == [UpkeepStep.ACTIVE]


def test_each_item_has_a_unique_key_and_both_labels():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    assert len({i.key for i in items}) == len(items)
    assert all(i.label_fr and i.label_en for i in items)


def test_it_refuses_an_item_ticked_out_of_order():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    with pytest.raises(IllegalAction, match="first"):
        check_tick(items, [], items[1].key)
    check_tick(items, [], items[0].key)
    check_tick(items, [items[0].key], items[1].key)


def test_it_refuses_an_item_ticked_twice_or_unknown():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    with pytest.raises(IllegalAction, match="already done"):
        check_tick(items, [items[0].key], items[0].key)
    with pytest.raises(IllegalAction, match="not on this upkeep checklist"):
        check_tick(items, [], "nope")


def test_next_item_walks_the_checklist_to_the_end():
    items = upkeep_checklist(FIGHTERS, EFFECTS)
    ticked = []
    while (item := next_item(items, ticked)) is not None:
        check_tick(items, ticked, item.key)
        ticked.append(item.key)
    assert ticked == [i.key for i in items]


fighters_strategy = st.lists(
    st.builds(
        UpkeepFighter,
        name=st.sampled_from(["A", "B", "C", "D"]),
        routed=st.booleans(),
        faithful=st.booleans(),
        magician=st.booleans(),
        stunned=st.booleans(),
        charged=st.booleans(),
        skills=st.lists(
            st.sampled_from(["Régénération/5", "Renfort", "Résurrection", "Vol/3"]),
            unique=True,
        ).map(tuple),
    ),
    unique_by=lambda f: f.name,
)


@given(fighters_strategy)
def test_the_checklist_is_always_in_step_order(fighters):
    order = list(UpkeepStep)
    indices = [order.index(i.step) for i in upkeep_checklist(fighters, EFFECTS)]
    assert indices == sorted(indices)
