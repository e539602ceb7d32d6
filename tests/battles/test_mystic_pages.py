"""Spells and miracles in the app (issue #32): a player's own typed, changed
and deleted by hand with each message next to its field, the library's
read-only, another player's out of reach, and the community catalogues
uploaded with what was not understood listed."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from battles.models import Miracle, Spell
from battles.models.mystic import MysticSource

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

DATA = Path(__file__).parent / "data" / "magic"

SPELL = {
    "name": "Flamme d'essai",
    "path": "Feu",
    "gems_fire": "2",
    "difficulty": "7",
    "frequency": "1",
    "range_cm": "20",
    "duration": "instant",
    "points": "5",
}


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_spell_typed_by_hand_is_the_player_s_own(owner_client):
    response = owner_client.post("/armies/mystic/spell/new/", SPELL)
    assert response.status_code == 302
    spell = Spell.objects.get(name="Flamme d'essai")
    assert spell.guest_key == "owner-key" and spell.source == MysticSource.MANUAL
    assert spell.cost == {"fire": 2} and spell.difficulty == 7
    assert spell.game_data()["cost"] == {"fire": 2}
    page = text(owner_client.get(response["Location"]))
    assert "Your spells" in page and "Flamme d'essai" in page and "2 fire" in page
    assert f"/armies/mystic/spell/{spell.pk}/" in page  # its Edit link


def test_bad_values_get_their_message_next_to_the_field_and_nothing_saved(
    owner_client,
):
    bad = {**SPELL, "difficulty": "40", "gems_water": "31", "name": ""}
    response = owner_client.post("/armies/mystic/spell/new/", bad)
    assert response.status_code == 200
    page = text(response)
    assert page.count('aria-invalid="true"') == 3
    assert "less than or equal to 30" in page and "This field is required" in page
    assert not Spell.objects.exists()
    response = owner_client.post(
        "/armies/mystic/spell/new/", {**SPELL, "difficulty": ""}
    )
    assert "Give the difficulty: a number, or a formula as printed." in text(response)
    response = owner_client.post(
        "/armies/mystic/miracle/new/", {"name": "Grâce", "difficulty": "5"}
    )
    assert "Give the cult, or tick “universal”." in text(response)
    assert not Miracle.objects.exists()


def test_a_name_the_player_already_has_is_refused_next_to_the_name(owner_client):
    owner_client.post("/armies/mystic/spell/new/", SPELL)
    response = owner_client.post("/armies/mystic/spell/new/", SPELL)
    assert "You already have one of that name." in text(response)
    assert Spell.objects.count() == 1


def test_a_spell_with_no_gem_is_entered_at_the_cast(owner_client):
    owner_client.post(
        "/armies/mystic/spell/new/", {**SPELL, "gems_fire": "0", "name": "Ombre"}
    )
    spell = Spell.objects.get(name="Ombre")
    assert spell.cost == {}
    page = text(owner_client.get("/armies/mystic/"))
    assert "cost entered at the cast" in page


def test_the_owner_edits_and_deletes_his_own_and_nobody_else_can(
    owner_client, opponent_client
):
    owner_client.post("/armies/mystic/spell/new/", SPELL)
    spell = Spell.objects.get()
    url = f"/armies/mystic/spell/{spell.pk}/"
    assert opponent_client.get(url).status_code == 404
    assert opponent_client.post(url, {**SPELL, "difficulty": "3"}).status_code == 404
    assert opponent_client.post(url + "delete/").status_code == 404
    form = text(owner_client.get(url))
    assert 'value="Flamme d\'essai"' in form and "Edit the spell" in form
    response = owner_client.post(url, {**SPELL, "difficulty": "8", "gems_air": "1"})
    assert response.status_code == 302
    spell.refresh_from_db()
    assert spell.difficulty == 8 and spell.cost == {"fire": 2, "air": 1}
    assert spell.difficulty_text == "8"
    assert owner_client.post(url + "delete/").status_code == 302
    assert not Spell.objects.exists()


def test_a_miracle_typed_by_hand(owner_client):
    response = owner_client.post(
        "/armies/mystic/miracle/new/",
        {
            "name": "Grâce d'essai",
            "cult": "Merin",
            "creation": "1",
            "alteration": "0",
            "destruction": "1",
            "difficulty_text": "fervour+4",
            "duration": "end_of_round",
        },
    )
    assert response.status_code == 302
    miracle = Miracle.objects.get()
    assert miracle.aspects == "1-0-1" and miracle.points == 0
    assert miracle.game_data()["difficulty"] == "fervour+4"


def test_the_library_s_are_listed_read_only(owner_client):
    spell = Spell.objects.create(name="Bibliothèque", cost={"air": 1}, difficulty=5)
    page = text(owner_client.get("/armies/mystic/"))
    assert "Library spells" in page and "Bibliothèque" in page
    assert f"/armies/mystic/spell/{spell.pk}/" not in page
    assert owner_client.get(f"/armies/mystic/spell/{spell.pk}/").status_code == 404
    assert owner_client.get("/armies/mystic/potion/new/").status_code == 404


def test_a_catalogue_uploaded_lists_what_was_not_understood(owner_client):
    upload = SimpleUploadedFile("spells.cat", (DATA / "spells.cat").read_bytes())
    response = owner_client.post("/armies/mystic/import/", {"file": upload})
    page = re.sub(r"<[^>]+>", "", text(response))
    assert response.status_code == 200
    assert "Not understood (kept as printed)" in page
    assert "Ombra di prova: mana cost “X tenebre”" in page
    assert "Vuoto di prova: mana cost “1 --”" in page
    assert Spell.objects.filter(guest_key="owner-key").exists()
    assert not Spell.objects.filter(guest_key="").exists()  # not the library's
    bad = SimpleUploadedFile("notes.cat", b"not a catalogue")
    response = owner_client.post("/armies/mystic/import/", {"file": bad})
    page = text(response)
    assert 'aria-invalid="true"' in page and "not well-formed XML" in page


def test_a_deleted_spell_is_forgotten_by_the_army_cards_that_knew_it(
    demo_armies, owner_client
):
    from battles.models.identity import Owner
    from battles.services.armies import duplicate_army
    from battles.services.mystic import set_known

    owner = Owner(guest_key="owner-key")

    owner_client.post("/armies/mystic/spell/new/", SPELL)
    spell = Spell.objects.get()
    army = duplicate_army(demo_armies[0], owner)
    mage = army.cards.get(card__name="Guerrier-mage")
    set_known(mage, owner, spells=[spell.name])
    assert list(mage.spells.all()) == [spell]
    owner_client.post(f"/armies/mystic/spell/{spell.pk}/delete/")
    assert list(mage.spells.all()) == []


def test_the_list_words_the_gems_in_the_reader_s_language(owner_client):
    owner_client.post("/armies/mystic/spell/new/", SPELL)
    owner_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    page = text(owner_client.get("/armies/mystic/", HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Vos sortilèges" in page and "2 feu" in page
