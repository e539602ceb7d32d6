"""Spells and miracles imported from community catalogues (issue #32).

The test files (``tests/battles/data/magic/``) are hand-written in the shape
of the community catalogues AA-Spells.cat and AA-Miracles.cat
(squera/newrecruit-confrontation-C5, no licence: nothing copied), as
``wolfen.cat`` is for cards. The real files are read when
``CONFRONTATION_C5_DIR`` names a copy of that repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.management import call_command

from battles.files.mystic_catalogue import read_mystic_catalogue
from battles.models import Miracle, Spell
from battles.models.mystic import MysticSource
from battles.services.mystic import import_mystic_catalogue

pytestmark = pytest.mark.usefixtures("english")

DATA = Path(__file__).parent / "data" / "magic"


def data(name: str) -> bytes:
    return (DATA / name).read_bytes()


def test_a_spell_card_s_values_are_read_and_kept_as_printed():
    spells = {r.name: r for r in read_mystic_catalogue(data("spells.cat")).spells}
    fiamma = spells["Fiamma di prova"].values
    assert fiamma["path"] == "[Elementale] Fuoco"
    assert fiamma["cost"] == {"fire": 2} and fiamma["cost_text"] == "2 Fuoco"
    assert fiamma["difficulty"] == 7 and fiamma["frequency"] == 1
    assert fiamma["duration"] == "instant" and fiamma["range_cm"] == 20
    assert fiamma["area"] == "enemy_fighter" and fiamma["intensity"] == 1
    assert fiamma["points"] == 5
    scudo = spells["Scudo di prova"].values
    assert scudo["cost"] == {"neutral": 1}
    # A formula is understood and kept as printed, not a number.
    assert scudo["difficulty"] is None and scudo["difficulty_text"] == "POT + 3"
    assert scudo["frequency"] is None and scudo["frequency_text"] == "Illimitata"
    assert scudo["duration"] == "end_of_round"


def test_what_is_not_understood_is_listed_not_dropped():
    catalogue = read_mystic_catalogue(data("spells.cat"))
    assert catalogue.unclear == [
        ("Ombra di prova", "mana cost", "X tenebre"),
        ("Ombra di prova", "area", "una perdita non-morto"),
        ("Vuoto di prova", "mana cost", "1 --"),
        ("Vuoto di prova", "difficulty", "Possanza del bersaglio + 4"),
        ("Vuoto di prova", "duration", "until the next activation of the magician"),
    ]


def test_a_miracle_card_s_cult_aspects_fervour_and_formula():
    miracles = {r.name: r for r in read_mystic_catalogue(data("miracles.cat")).miracles}
    luce = miracles["Luce di prova (1 0 0)"].values
    assert luce["universal"] and luce["fervour"] == 2 and luce["difficulty"] == 6
    assert (luce["creation"], luce["alteration"], luce["destruction"]) == (1, 0, 0)
    ira = miracles["Ira di prova (0 1 1)"].values
    assert ira["cult"] == "Vicar Miracles" and not ira["universal"]
    assert ira["fervour"] is None and ira["fervour_text"] == "x libero"
    assert ira["difficulty_text"] == "x + 4" and ira["duration"] == "game"


@pytest.mark.django_db
def test_the_import_reads_both_files_counts_and_lists_what_it_did_not_understand():
    spells = import_mystic_catalogue(data("spells.cat"))
    miracles = import_mystic_catalogue(data("miracles.cat"))
    assert len(spells.imported) == 4 and len(spells.unclear) == 5
    assert miracles.imported == ["Luce di prova", "Ira di prova"]
    assert miracles.skipped == [("Miracolo vuoto", "a blank card")]
    assert ("Ira di prova", "range", "a o f") in miracles.unclear
    assert Spell.objects.shared().count() == 4
    assert Miracle.objects.shared().count() == 2
    ombra = Spell.objects.get(name="Ombra di prova")
    assert ombra.unclear == [
        ["mana cost", "X tenebre"],
        ["area", "una perdita non-morto"],
    ]
    assert ombra.source == MysticSource.CATALOGUE
    luce = Miracle.objects.get(name="Luce di prova")
    assert luce.aspects == "1-0-0" and luce.game_data()["cults"] == []
    # Idempotent: again, nothing new.
    again = import_mystic_catalogue(data("spells.cat"))
    assert again.imported == [] and len(again.unchanged) == 4


@pytest.mark.django_db
def test_a_spell_typed_by_hand_is_never_overwritten():
    Spell.objects.create(name="Fiamma di prova", difficulty=4)
    summary = import_mystic_catalogue(data("spells.cat"))
    assert ("Fiamma di prova", "typed by hand: not overwritten") in summary.skipped
    assert Spell.objects.get(name="Fiamma di prova").difficulty == 4


@pytest.mark.django_db
def test_the_command_imports_and_names_every_value_not_understood(capsys):
    call_command("import_mystic_catalogue", str(DATA / "spells.cat"))
    out = capsys.readouterr().out
    assert "4 imported" in out and "5 value(s) not understood" in out
    assert "not understood: Vuoto di prova: mana cost '1 --'" in out


C5 = os.environ.get("CONFRONTATION_C5_DIR")


@pytest.mark.skipif(not C5, reason="CONFRONTATION_C5_DIR is not set")
@pytest.mark.django_db
def test_the_community_files_46_spells_and_16_miracles():
    spells = import_mystic_catalogue((Path(C5) / "AA-Spells.cat").read_bytes())
    miracles = import_mystic_catalogue((Path(C5) / "AA-Miracles.cat").read_bytes())
    assert spells.read == 46 and not spells.skipped
    assert miracles.read + len(miracles.skipped) == 16
    assert len(spells.unclear) == 15 and len(miracles.unclear) == 6
