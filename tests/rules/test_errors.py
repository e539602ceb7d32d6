"""Player-facing messages of the rules: translatable templates and their values."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules.errors import IllegalAction, Message, Words, _, joined, render

RULES = Path(__file__).resolve().parents[2] / "rules"

FRENCH = {
    "{fighter} was eliminated.": "{fighter} a été éliminé.",
    "It has no ranged weapon.": "Il n'a pas d'arme de tir.",
    "{fighter}: {problem}": "{fighter} : {problem}",
    "Do '{item}' first.": "Faites d'abord « {item} ».",
    "Broken {oops}.": "Cassé {autre}.",
}


def french(template: str) -> str:
    return FRENCH.get(template, template)


def test_the_marker_changes_nothing():
    assert _("The game is over.") == "The game is over."


def test_an_illegal_action_is_the_english_sentence_and_keeps_its_template():
    error = IllegalAction(_("{fighter} was eliminated."), fighter="Kelt")
    assert str(error) == "Kelt was eliminated."
    assert error.template == "{fighter} was eliminated."
    assert error.params == {"fighter": "Kelt"}
    assert error.render(french, "fr") == "Kelt a été éliminé."
    assert error.render() == "Kelt was eliminated."


def test_a_message_given_alone_becomes_the_template():
    reason = Message(_("{fighter} was eliminated."), fighter="Kelt")
    assert reason == "Kelt was eliminated."
    error = IllegalAction(reason)
    assert error.template == "{fighter} was eliminated."
    assert error.params == {"fighter": "Kelt"}


def test_values_are_translated_too():
    problem = Message(_("It has no ranged weapon."))
    error = IllegalAction(_("{fighter}: {problem}"), fighter="Kelt", problem=problem)
    assert str(error) == "Kelt: It has no ranged weapon."
    assert error.render(french, "fr") == "Kelt : Il n'a pas d'arme de tir."


def test_words_pick_the_readers_language():
    item = Words("Rally", "Ralliement")
    error = IllegalAction(_("Do '{item}' first."), item=item)
    assert str(error) == "Do 'Rally' first."
    assert error.render(french, "fr") == "Faites d'abord « Ralliement »."
    assert error.render() == "Do 'Rally' first."


def test_joined_reasons_are_translated_one_by_one():
    one = Message(_("It has no ranged weapon."))
    two = Message(_("{fighter} was eliminated."), fighter="Kelt")
    assert joined([one]) is one
    error = IllegalAction(joined([one, two]))
    assert str(error) == "It has no ranged weapon. Kelt was eliminated."
    assert error.render(french, "fr") == (
        "Il n'a pas d'arme de tir. Kelt a été éliminé."
    )


def test_a_broken_translation_falls_back_to_english():
    assert render("Broken {oops}.", {"oops": 1}, french, "fr") == "Broken 1."


def _calls(tree: ast.AST, name: str):
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == name
        ):
            yield node


def _marked(node: ast.expr) -> bool:
    """A template marked ``_()`` (or either branch of a conditional marked)."""
    if isinstance(node, ast.IfExp):
        return _marked(node.body) and _marked(node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in ("_", "Message", "joined")
    # a reason found earlier (a Message) passed on: a variable or an item
    return isinstance(node, (ast.Name, ast.Subscript, ast.Attribute))


@pytest.mark.parametrize(
    "path",
    sorted([*RULES.glob("*.py"), *RULES.glob("*/*.py")]),
    ids=lambda p: str(p.relative_to(RULES)),
)
def test_every_player_message_is_a_marked_template(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for name in ("IllegalAction", "Message"):
        for call in _calls(tree, name):
            assert call.args, f"{path.name}:{call.lineno}"
            template = call.args[0]
            assert not isinstance(template, (ast.JoinedStr, ast.Constant)), (
                f"{path.name}:{call.lineno}: mark the message with _() and give "
                "its values as keywords"
            )
            assert _marked(template), f"{path.name}:{call.lineno}"
