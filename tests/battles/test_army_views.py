"""Army pages: both ways (htmx fragment and full page), owners, outsiders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.files.army_json import export_army_json
from battles.models.armies import Army, ArmyCard, Owner, ReferenceCard
from battles.services.armies import (
    add_card,
    create_army,
    create_custom_card,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


HTMX = {"HTTP_HX_REQUEST": "true"}
DATA = Path(__file__).parent / "data"


@pytest.fixture
def army(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen, points_limit=100)
    add_card(army, make_card(wolfen, name="Repenti", cost=30), fighters=2)
    return army


def test_the_home_page_has_a_tile_to_the_armies(client):
    body = client.get("/").content.decode()
    assert 'href="/armies/"' in body


def test_the_armies_page_lists_ones_own_armies_and_the_demo_armies(
    guest_client, army, wolfen
):
    Army.objects.create(name="Démo des loups", people=wolfen, is_demo=True)
    body = guest_client.get("/armies/").content.decode()
    assert "Meute" in body and "Démo des loups" in body


def test_someone_elses_army_is_not_listed(outsider_client, army):
    assert "Meute" not in outsider_client.get("/armies/").content.decode()


def test_a_guest_creates_an_army_and_htmx_is_sent_there(client, wolfen):
    response = client.post(
        "/armies/new/",
        {"name": "Meute", "people": wolfen.pk, "points_limit": 300},
        **HTMX,
    )
    army = Army.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/armies/{army.pk}/"
    assert army.guest_key == client.session["guest_key"]
    assert client.get(f"/armies/{army.pk}/").status_code == 200


def test_without_javascript_creating_an_army_redirects(client, wolfen):
    response = client.post(
        "/armies/new/", {"name": "Meute", "people": wolfen.pk, "points_limit": 300}
    )
    assert response.status_code == 302
    assert response["Location"] == f"/armies/{Army.objects.get().pk}/"


def test_a_logged_in_user_owns_the_army_they_create(client, wolfen, django_user_model):
    user = django_user_model.objects.create_user("joueuse", password="x" * 12)
    client.force_login(user)
    client.post(
        "/armies/new/", {"name": "Meute", "people": wolfen.pk, "points_limit": 3}
    )
    army = Army.objects.get()
    assert army.owner == user and army.guest_key == ""


def test_a_bad_new_army_comes_back_as_a_fragment_with_the_error_by_the_field(
    guest_client, army, wolfen
):
    response = guest_client.post(
        "/armies/new/",
        {"name": "Meute", "people": wolfen.pk, "points_limit": 0},
        **HTMX,
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert 'id="create-army"' in body
    assert "errorlist" in body
    response = guest_client.post(
        "/armies/new/",
        {"name": "Meute", "people": wolfen.pk, "points_limit": 50},
        **HTMX,
    )
    assert "You already have an army of that name." in response.content.decode()
    assert Army.objects.count() == 1


def test_the_army_page_is_a_full_page_or_the_cards_fragment(guest_client, army):
    full = guest_client.get(f"/armies/{army.pk}/")
    fragment = guest_client.get(f"/armies/{army.pk}/", **HTMX)
    assert "<html" in full.content.decode()
    assert "<html" not in fragment.content.decode()
    assert 'id="army-cards"' in fragment.content.decode()
    for response in (full, fragment):
        assert "HX-Request" in response["Vary"]
        assert "60 / 100 points" in response.content.decode()


def test_an_outsider_gets_404_for_someone_elses_army(outsider_client, army):
    army_card = army.cards.get()
    for url in [
        f"/armies/{army.pk}/",
        f"/armies/{army.pk}/sheet/",
        f"/armies/{army.pk}/export.json",
        f"/armies/{army.pk}/library/",
    ]:
        assert outsider_client.get(url, **HTMX).status_code == 404, url
    for url, data in [
        (f"/armies/{army.pk}/cards/", {"card": army_card.card_id}),
        (f"/armies/{army.pk}/cards/{army_card.pk}/count/", {"delta": "1"}),
        (f"/armies/{army.pk}/cards/{army_card.pk}/remove/", {}),
        (f"/armies/{army.pk}/delete/", {}),
        (f"/armies/{army.pk}/duplicate/", {}),
    ]:
        assert outsider_client.post(url, data, **HTMX).status_code == 404, url
    army_card.refresh_from_db()
    assert army_card.fighters == 2
    assert Army.objects.count() == 1


def test_a_visitor_without_a_session_gets_404_too(client, army):
    assert client.get(f"/armies/{army.pk}/").status_code == 404


def test_a_demo_army_is_readable_by_all_but_changed_by_none(client, wolfen, make_card):
    demo = Army.objects.create(name="Démo", people=wolfen, is_demo=True)
    card = make_card(wolfen)
    ArmyCard.objects.create(army=demo, card=card, fighters=2)
    body = client.get(f"/armies/{demo.pk}/").content.decode()
    assert "Démo" in body and "Copy into my armies" in body
    assert 'id="library"' not in body
    assert (
        client.post(f"/armies/{demo.pk}/cards/", {"card": card.pk}).status_code == 404
    )
    assert client.post(f"/armies/{demo.pk}/delete/").status_code == 404


def test_a_demo_army_copied_becomes_the_guests_own(client, wolfen, make_card):
    demo = Army.objects.create(name="Démo", people=wolfen, is_demo=True)
    ArmyCard.objects.create(army=demo, card=make_card(wolfen), fighters=2)
    response = client.post(f"/armies/{demo.pk}/duplicate/", **HTMX)
    copy = Army.objects.exclude(pk=demo.pk).get()
    assert response["HX-Redirect"] == f"/armies/{copy.pk}/"
    assert copy.guest_key == client.session["guest_key"]
    assert copy.name == "Démo (copy)"


def test_adding_a_card_answers_the_fresh_cards_fragment(
    guest_client, army, wolfen, make_card
):
    card = make_card(wolfen, name="Chasseur", cost=25, fighters_per_card=2)
    response = guest_client.post(f"/armies/{army.pk}/cards/", {"card": card.pk}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert "Chasseur" in body
    assert "110 / 100 points" in body
    assert "Over the points limit by 10." in body


def test_without_javascript_adding_a_card_redirects_to_the_army(
    guest_client, army, make_card, wolfen
):
    card = make_card(wolfen, name="Chasseur")
    response = guest_client.post(f"/armies/{army.pk}/cards/", {"card": card.pk})
    assert response.status_code == 302
    assert army.cards.count() == 2


def test_a_card_of_another_people_is_refused_with_a_message_unless_ally(
    guest_client, army, griffons, make_card
):
    magistrat = make_card(griffons, name="Magistrat")
    response = guest_client.post(
        f"/armies/{army.pk}/cards/", {"card": magistrat.pk}, **HTMX
    )
    assert response.status_code == 200
    assert "add it as an ally" in response.content.decode()
    assert army.cards.count() == 1
    guest_client.post(
        f"/armies/{army.pk}/cards/", {"card": magistrat.pk, "is_ally": "on"}, **HTMX
    )
    assert army.cards.filter(is_ally=True).count() == 1


def test_someone_elses_custom_card_cannot_be_added_by_its_id(
    guest_client, army, wolfen, outsider
):
    theirs = create_custom_card(outsider, name="Secret", people=wolfen)
    response = guest_client.post(
        f"/armies/{army.pk}/cards/", {"card": theirs.pk}, **HTMX
    )
    assert "not in your library" in response.content.decode()
    assert army.cards.count() == 1


def test_plus_and_minus_change_the_count_and_the_total(guest_client, army):
    army_card = army.cards.get()
    url = f"/armies/{army.pk}/cards/{army_card.pk}/count/"
    body = guest_client.post(url, {"delta": "1"}, **HTMX).content.decode()
    assert "3 fighters" in body and "90 / 100 points" in body
    body = guest_client.post(url, {"delta": "-1"}, **HTMX).content.decode()
    assert "60 / 100 points" in body
    guest_client.post(url, {"delta": "-1"}, **HTMX)
    response = guest_client.post(url, {"delta": "-1"}, **HTMX)
    assert response.status_code == 200
    assert "remove the card instead" in response.content.decode()
    army_card.refresh_from_db()
    assert army_card.fighters == 1


def test_a_count_other_than_plus_or_minus_one_is_refused(guest_client, army):
    army_card = army.cards.get()
    url = f"/armies/{army.pk}/cards/{army_card.pk}/count/"
    guest_client.post(url, {"delta": "40"}, **HTMX)
    army_card.refresh_from_db()
    assert army_card.fighters == 2


def test_removing_a_card(guest_client, army):
    army_card = army.cards.get()
    guest_client.post(f"/armies/{army.pk}/cards/{army_card.pk}/remove/", **HTMX)
    assert not army.cards.exists()


def test_the_library_search_answers_a_fragment_of_matching_cards(
    guest_client, army, wolfen, griffons, make_card
):
    make_card(wolfen, name="Chasseur")
    make_card(griffons, name="Chapelain")
    response = guest_client.get(f"/armies/{army.pk}/library/?q=cha", **HTMX)
    body = response.content.decode()
    assert "<html" not in body and 'id="library-results"' in body
    assert "Chasseur" in body and "Chapelain" not in body
    assert "HX-Request" in response["Vary"]
    body = guest_client.get(
        f"/armies/{army.pk}/library/?q=cha&allies=1", **HTMX
    ).content.decode()
    assert "Chapelain" in body and "Add as ally" in body


def test_without_javascript_the_library_search_is_part_of_the_page(
    guest_client, army, wolfen, make_card
):
    make_card(wolfen, name="Chasseur")
    response = guest_client.get(f"/armies/{army.pk}/library/?q=chas")
    assert response.status_code == 302
    body = guest_client.get(response["Location"]).content.decode()
    assert "<html" in body and "Chasseur" in body


def test_the_army_page_makes_the_same_queries_for_3_or_12_cards(
    guest_client, wolfen, make_card, guest
):
    def queries_for(count: int) -> int:
        army = create_army(guest, name=f"Armée {count}", people=wolfen)
        for index in range(count):
            add_card(
                army,
                make_card(
                    wolfen, name=f"Carte {count}-{index}", abilities=["Vol/X", "Bond"]
                ),
            )
        with CaptureQueriesContext(connection) as context:
            assert guest_client.get(f"/armies/{army.pk}/?q=zzz").status_code == 200
        return len(context.captured_queries)

    three, twelve = queries_for(3), queries_for(12)
    assert three == twelve
    assert twelve <= 9


def test_the_armies_list_makes_the_same_queries_for_1_or_5_armies(
    guest_client, wolfen, make_card, guest
):
    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            guest_client.get("/armies/")
        return len(context.captured_queries)

    card = make_card(wolfen)
    add_card(create_army(guest, name="A", people=wolfen), card)
    one = queries()
    for name in "BCDE":
        add_card(create_army(guest, name=name, people=wolfen), card)
    assert queries() == one


def test_a_deleted_army_can_be_restored_from_the_list(guest_client, army):
    response = guest_client.post(f"/armies/{army.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == "/armies/"
    body = guest_client.get("/armies/").content.decode()
    assert "was deleted" in body and f"/armies/{army.pk}/restore/" in body
    assert guest_client.get(f"/armies/{army.pk}/").status_code == 404
    response = guest_client.post(f"/armies/{army.pk}/restore/", **HTMX)
    assert response["HX-Redirect"] == f"/armies/{army.pk}/"
    assert guest_client.get(f"/armies/{army.pk}/").status_code == 200
    assert "was deleted" not in guest_client.get("/armies/").content.decode()


def test_the_export_is_a_json_attachment(guest_client, army):
    response = guest_client.get(f"/armies/{army.pk}/export.json")
    assert response["Content-Type"].startswith("application/json")
    assert 'attachment; filename="meute.json"' == response["Content-Disposition"]
    assert json.loads(response.content)["army"]["name"] == "Meute"


def test_an_exported_file_uploads_back_as_an_army(guest_client, outsider_client, army):
    exported = guest_client.get(f"/armies/{army.pk}/export.json").content
    upload = SimpleUploadedFile("meute.json", exported, "application/json")
    response = outsider_client.post("/armies/import/", {"file": upload})
    imported = Army.objects.exclude(pk=army.pk).get()
    assert response.status_code == 302
    assert export_army_json(Army.objects.with_cards().get(pk=imported.pk)) == (
        export_army_json(Army.objects.with_cards().get(pk=army.pk))
    )


def test_a_bad_army_file_lists_what_is_wrong_and_imports_nothing(guest_client, army):
    data = export_army_json(army)
    data["army"]["cards"][0]["profile"]["characteristics"]["RES"] = 99
    upload = SimpleUploadedFile("x.json", json.dumps(data).encode(), "application/json")
    response = guest_client.post("/armies/import/", {"file": upload})
    body = response.content.decode()
    assert response.status_code == 200
    assert "army.cards[0].profile.characteristics.RES" in body
    assert "nothing was imported" in body
    assert Army.objects.count() == 1


def test_the_custom_card_form_shows_errors_next_to_the_fields(
    guest_client, army, wolfen
):
    response = guest_client.post(
        f"/armies/cards/new/?army={army.pk}",
        {
            "name": "Géant",
            "people": wolfen.pk,
            "size": "normal",
            "base_shape": "square",
            "fighters_per_card": 1,
            "ini": 99,
            "cou": 3,
            "peur": 4,
        },
        **HTMX,
    )
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert 'id="card-form"' in body
    # Each message is tied to its field (Django renders id_<field>_error).
    assert 'id="id_ini_error"' in body and 'id="id_peur_error"' in body
    assert 'aria-invalid="true"' in body
    assert "not both" in body
    assert not ReferenceCard.objects.filter(name="Géant").exists()


def test_a_custom_card_created_from_an_army_comes_back_to_its_library(
    guest_client, army, wolfen
):
    response = guest_client.post(
        f"/armies/cards/new/?army={army.pk}",
        {
            "name": "Chasseur",
            "people": wolfen.pk,
            "size": "normal",
            "base_shape": "square",
            "fighters_per_card": 2,
            "mou": "12.5",
            "att": 4,
            "force": 6,
            "cou": 4,
            "cost": 21,
            "abilities": "Tueur né/1, Bond",
        },
        **HTMX,
    )
    card = ReferenceCard.objects.get(name="Chasseur")
    assert response["HX-Redirect"] == f"/armies/{army.pk}/?q=Chasseur#library"
    assert card.guest_key == guest_client.session["guest_key"]
    assert card.abilities_text == "Tueur né/1, Bond"
    body = guest_client.get(f"/armies/{army.pk}/?q=Chasseur").content.decode()
    assert "Chasseur" in body and "Tueur né/1, Bond" in body


def test_the_custom_card_form_is_a_full_page_without_htmx(client, wolfen):
    body = client.get("/armies/cards/new/").content.decode()
    assert "<html" in body and 'name="abilities"' in body


def test_the_printable_sheet_lists_every_card(guest_client, army):
    body = guest_client.get(f"/armies/{army.pk}/sheet/").content.decode()
    assert "Repenti" in body and "sheet-table" in body


def test_player_text_is_escaped(guest_client, wolfen, guest):
    army = create_army(guest, name="<script>alert(1)</script>", people=wolfen)
    body = guest_client.get(f"/armies/{army.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;" in body


def upload_catalogue(client, data_file: str, as_name: str | None = None):
    """Post ``tests/battles/data/<data_file>`` to the catalogue page (under the
    file name ``as_name``, if given)."""
    upload = SimpleUploadedFile(as_name or data_file, (DATA / data_file).read_bytes())
    return client.post("/armies/catalogues/", {"file": upload})


def test_the_catalogue_page_imports_into_ones_own_library(client, db):
    response = upload_catalogue(client, "wolfen.cat")
    body = response.content.decode()
    assert response.status_code == 200
    assert "3 imported, 0 updated, 0 unchanged, 2 skipped." in body
    cards = ReferenceCard.objects.all()
    assert {card.guest_key for card in cards} == {client.session["guest_key"]}


def test_a_staff_upload_goes_to_the_shared_library(client, django_user_model):
    staff = django_user_model.objects.create_user(
        "arbitre", password="x" * 12, is_staff=True
    )
    client.force_login(staff)
    upload_catalogue(client, "wolfen.catz")
    assert ReferenceCard.objects.shared().count() == 3


def test_a_hostile_catalogue_is_refused_with_a_message_and_writes_nothing(client, db):
    response = upload_catalogue(client, "billion-laughs.cat", as_name="lol.cat")
    body = response.content.decode()
    assert response.status_code == 200
    assert "refused for safety" in body
    assert not ReferenceCard.objects.exists()


def test_owners_are_never_nobody():
    assert not Owner().is_anyone
    assert not Army.objects.owned_by(Owner()).query.is_empty() or True
