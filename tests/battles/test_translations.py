"""The French catalogue: complete, faithful to its placeholders, compiled, used."""

from __future__ import annotations

import ast
import gettext
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.test import Client

from tests.support.cast import phone_of
from tests.support.game_steps import act
from tests.support.live import guests_game

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

# %(name)s, %(count)d, %% and {name} (str.format, the rules' templates)
PLACEHOLDER = re.compile(
    r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdfr]|%%|\{[A-Za-z_][A-Za-z0-9_]*(?:![rs])?\}"
)


@dataclass
class Entry:
    flags: list[str] = field(default_factory=list)
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return repr(self.msgid)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (obsolete ``#~`` entries left out)."""
    entries: list[Entry] = []
    entry, target = Entry(), None

    def close():
        nonlocal entry, target
        if target is not None:
            entries.append(entry)
        entry, target = Entry(), None

    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            close()
        elif line.startswith("#,"):
            entry.flags += [f.strip() for f in line[2:].split(",")]
        elif line.startswith("#"):
            continue
        elif line.startswith("msgctxt "):
            entry.context, target = ast.literal_eval(line[8:]), "context"
        elif line.startswith("msgid_plural "):
            entry.plural, target = ast.literal_eval(line[13:]), "plural"
        elif line.startswith("msgid "):
            entry.msgid, target = ast.literal_eval(line[6:]), "msgid"
        elif line.startswith("msgstr["):
            index, text = re.match(r"msgstr\[(\d+)\] (.*)", line).groups()
            entry.msgstr[int(index)], target = ast.literal_eval(text), int(index)
        elif line.startswith("msgstr "):
            entry.msgstr[0], target = ast.literal_eval(line[7:]), 0
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if isinstance(target, int):
                entry.msgstr[target] += text
            else:
                setattr(entry, target, getattr(entry, target) + text)
    close()
    return [e for e in entries if e.msgid]  # the header has an empty msgid


ENTRIES = read_po(PO)


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def test_the_catalogue_is_read_whole():
    assert len(ENTRIES) > 900
    assert any(e.plural for e in ENTRIES)
    assert any(e.context for e in ENTRIES)


def test_every_entry_is_translated_and_none_is_fuzzy():
    fuzzy = [str(e) for e in ENTRIES if "fuzzy" in e.flags]
    empty = [str(e) for e in ENTRIES if not e.msgstr or not all(e.msgstr.values())]
    assert not fuzzy, fuzzy
    assert not empty, empty


def test_plural_entries_have_both_french_forms():
    for entry in ENTRIES:
        if entry.plural is not None:
            assert sorted(entry.msgstr) == [0, 1], entry


def test_every_translation_keeps_the_placeholders_of_its_source():
    wrong = []
    for entry in ENTRIES:
        sources = [entry.msgid] if entry.plural is None else [entry.msgid, entry.plural]
        for index, source in enumerate(sources):
            if placeholders(entry.msgstr[index]) != placeholders(source):
                wrong.append((source, entry.msgstr[index]))
    assert not wrong, wrong


def test_the_compiled_catalogue_matches_the_po_file():
    """CI does not compile messages: the committed .mo must be up to date."""
    with MO.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    stale = []
    for entry in ENTRIES:
        key = (
            entry.msgid
            if entry.context is None
            else f"{entry.context}\x04{entry.msgid}"
        )
        if entry.plural is None:
            if catalog._catalog.get(key) != entry.msgstr[0]:
                stale.append(entry.msgid)
        else:
            forms = [catalog._catalog.get((key, n)) for n in (0, 1)]
            if forms != [entry.msgstr[0], entry.msgstr[1]]:
                stale.append(entry.msgid)
    assert not stale, f"run compilemessages: {stale[:5]}"


def test_the_rules_messages_are_in_the_catalogue():
    ids = {e.msgid for e in ENTRIES}
    assert "{fighter} was eliminated." in ids
    assert "It is side {side}'s turn." in ids
    assert "The game is over." in ids


# --- a rules refusal reaches the player in their language ----------------------


@pytest.fixture
def game(db):
    return guests_game(
        "owner-key", "opponent-key", turns=6, player_a="Anne", player_b="Bruno"
    )


def phone(key: str, language: str) -> Client:
    return phone_of(key, Client(HTTP_ACCEPT_LANGUAGE=language))


def tap(client: Client, game, **data) -> str:
    response = act(client, game, **data)
    assert response.status_code == 200
    game.refresh_from_db()
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Impossible maintenant : la partie a avancé."),
        ("en", "That cannot be done now: the game moved on."),
    ],
)
def test_a_draw_in_the_strategic_phase_is_refused_in_the_players_language(
    game, language, message
):
    body = tap(phone("owner-key", language), game, type="draw", side="a", action="draw")
    assert "message-error" in body
    assert message in body
    assert game.version == 1


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Il manque {card} : la séquence contient toutes vos cartes"),
        ("en", "{card} is missing: the sequence holds all your reference cards"),
    ],
)
def test_a_refusal_with_a_value_is_filled_in_after_translation(game, language, message):
    cards = game.state["sides"]["a"]["cards"]
    name = game.state["cards"][cards[-1]]["name"]
    body = tap(
        phone("owner-key", language),
        game,
        type="set_sequence",
        side="a",
        order=cards[:-1],
    )
    assert message.format(card=name) in body
    assert game.state["sequences"]["a"] is None


def test_without_a_language_asked_the_app_speaks_french(game, settings):
    settings.LANGUAGE_CODE = "fr"
    body = tap(phone_of("owner-key"), game, type="draw", side="a", action="draw")
    assert "Impossible maintenant : la partie a avancé." in body


def test_a_reason_inside_a_refusal_is_translated_too():
    from django.utils import translation

    from battles.presenters.words import rules_text
    from rules.errors import IllegalAction, Message, Words, _

    error = IllegalAction(
        _("{fighter}: {problem}"),
        fighter="Kelt",
        problem=Message(_("It has no ranged weapon.")),
    )
    upkeep = IllegalAction(
        _("Do '{item}' first: the upkeep phase runs in order ({section})."),
        item=Words("Rally", "Ralliement"),
        section="IV-D-1",
    )
    with translation.override("fr"):
        assert rules_text(error) == "Kelt : Il n'a pas d'arme de tir."
        assert rules_text(upkeep) == (
            "Faites d'abord « Ralliement » : la phase d'entretien se déroule "
            "dans l'ordre (IV-D-1)."
        )
    with translation.override("en"):
        assert rules_text(error) == "Kelt: It has no ranged weapon."
        assert rules_text(upkeep).startswith("Do 'Rally' first")
