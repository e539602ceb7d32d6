"""The hex combat sheet page (/hex/): live total, table, odds, roll, losses."""

import re

import pytest
from django.urls import reverse

from rules import hexcombat as hx

pytestmark = pytest.mark.django_db

URL = "/hex/"
HTMX = {"HTTP_HX_REQUEST": "true"}

# A charging heavy cavalry on the flank with 2 offensive supports against a
# shaken defender with 1 defensive support: +4 +2 +2 -1 +1 = +8.
CHARGE = {
    "mode": "shock",
    "weapon_system": "0",
    "other_modifier": "0",
    "attacker_capacity": "ordinary",
    "defender_capacity": "ordinary",
    "attacker_supports": "2",
    "defender_supports": "1",
    "attacker_character_supports": "0",
    "attacker_character_capacity": "ordinary",
    "defender_character_supports": "0",
    "defender_character_capacity": "ordinary",
    "attacker_charging": "on",
    "attacker_cavalry": "on",
    "attacker_breath": "fresh",
    "defender_breath": "fresh",
    "defender_morale": "shaken",
    "direction": "flank",
    "height": "level",
    "attacker_terrain": "clear",
    "defender_terrain": "clear",
    "attacker_position": "ground",
    "defender_position": "ground",
    "attacker_size": "normal",
    "defender_size": "normal",
    "attacker_stacked_large": "0",
    "defender_stacked_large": "0",
    "defender_formation": "none",
    "loss_morale_profile": "ordinary",
    "faces": "",
}

ARCHERS = {
    "mode": "shooting",
    "shooter_kind": "archers",
    "cadence_choice": "volley",
    "distance": "3",
    "ammunition": "full",
    "weapon_system": "0",
    "other_modifier": "0",
    "shooter_capacity": "ordinary",
    "target_capacity": "ordinary",
    "shooter_supports": "0",
    "target_supports": "0",
    "shooter_character_supports": "0",
    "shooter_character_capacity": "ordinary",
    "target_character_supports": "0",
    "target_character_capacity": "ordinary",
    "shooter_breath": "fresh",
    "target_morale": "steady",
    "direction": "front",
    "altitude": "same",
    "shooter_position": "ground",
    "target_position": "ground",
    "shooter_terrain": "clear",
    "target_terrain": "clear",
    "shooter_size": "normal",
    "target_size": "normal",
    "shooter_stacked_large": "0",
    "target_stacked_large": "0",
    "target_formation": "none",
    "weather": "rain",
    "wind": "calm",
    "visibility": "clear",
    "loss_morale_profile": "ordinary",
    "faces": "",
}


@pytest.fixture
def client(client):
    """An English-speaking phone: the assertions read the English msgids."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def total_shown(body: str) -> str:
    match = re.search(r'id="hex-total"[^>]*>([^<]+)<', body)
    assert match, body[:2000]
    return match.group(1)


def test_the_url_is_named_hexcombat():
    assert reverse("hexcombat") == URL


def test_the_page_is_a_full_page_usable_without_an_account(client):
    response = client.get(URL)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" in body
    assert "Avantage au Choc" in body
    assert 'hx-post="/hex/"' in body
    assert 'hx-target="#hex-result"' in body
    assert total_shown(body) == "0"
    assert "HX-Request" in response["Vary"]


def test_the_shooting_mode_has_its_own_modifiers(client):
    body = client.get(URL + "?mode=shooting").content.decode()
    assert "Avantage au Tir" in body
    assert 'name="weather"' in body
    assert 'name="attacker_charging"' not in body


def test_an_htmx_update_returns_only_the_result_fragment(client):
    response = client.post(URL, CHARGE, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    assert "HX-Request" in response["Vary"]
    assert total_shown(body) == "+8"
    assert 'id="hex-column">+8<' in body


def test_the_total_shown_is_the_rules_total(client):
    expected = hx.shock_advantage(
        hx.ShockSituation(
            attacker_supports=2,
            defender_supports=1,
            attacker_charging=True,
            attacker_cavalry=True,
            defender_morale="shaken",
            direction="flank",
            supported=False,
        )
    ).total
    assert expected == 8
    body = client.post(URL, CHARGE, **HTMX).content.decode()
    assert total_shown(body) == f"+{expected}"
    for line in ('data-key="attacker_charge"', 'data-key="flank"', "Marqueur Charge"):
        assert line in body


def test_the_column_read_is_shown_between_two_printed_columns(client):
    data = CHARGE | {"other_modifier": "2"}  # +10 reads +9
    body = client.post(URL, data, **HTMX).content.decode()
    assert total_shown(body) == "+10"
    assert 'id="hex-column">+9<' in body
    assert "column to its left" in body


def test_the_odds_before_the_roll_are_shown_with_one_decimal(client):
    data = CHARGE | {"other_modifier": "-8"}  # advantage 0: 2 losses 3/36
    body = client.post(URL, data, **HTMX).content.decode()
    assert "8.3 %" in body  # 3/36
    assert "58.3 %" in body  # 21/36 for no loss


def test_faces_typed_from_real_dice_give_the_losses_and_the_checklist(client):
    body = client.post(URL, CHARGE | {"faces": "1 2"}, **HTMX).content.decode()
    # 3 at +8: three losses.
    assert 'id="hex-losses"' in body
    assert "3 losses" in body
    assert "Application des Pertes" in body
    assert 'data-key="morale_test' in body


def test_the_server_rolls_two_dice(client):
    body = client.post(URL, CHARGE | {"action": "roll"}, **HTMX).content.decode()
    faces = re.findall(r'class="hex-die">(\d)<', body)
    assert len(faces) == 2 and all(1 <= int(face) <= 6 for face in faces)
    assert 'id="hex-checklist"' in body


def test_a_full_page_post_without_htmx_works(client):
    response = client.post(URL, CHARGE | {"faces": "6 6", "action": "read"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" in body
    assert "0 losses" in body
    assert 'data-key="no_loss"' in body


def test_a_shooting_volley_rolls_its_cadence_and_warns_on_a_double(client):
    data = ARCHERS | {"faces": "3 3 6 5"}
    body = client.post(URL, data, **HTMX).content.decode()
    # -2 (distance) -3 (rain) = -5, reads -7; 6 gives no loss, 11 none either.
    assert total_shown(body) == "\u22125"
    assert 'id="hex-column">\u22127<' in body
    assert "2 rolls, losses summed" in body
    assert "ammunition level" in body
    assert "Munitions Diminuées" in body


def test_a_forbidden_shot_says_why(client):
    data = ARCHERS | {"distance": "5", "action": "roll"}
    response = client.post(URL, data, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "out of range" in body
    assert 'class="hex-die"' not in body


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("other_modifier", "99"),
        ("other_modifier", "-51"),
        ("weapon_system", "7"),
        ("attacker_capacity", "legendary"),
        ("direction", "sideways"),
        ("attacker_supports", "lots"),
        ("faces", "7 1"),
        ("faces", "0 3"),
    ],
)
def test_a_tampered_form_gets_a_message_next_to_the_field(client, field, value):
    response = client.post(URL, CHARGE | {field: value}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Traceback" not in body
    slot = re.search(
        rf'<p class="field-error" id="id_{field}_error"[^>]*>([^<]*)<', body
    )
    assert slot and slot.group(1).strip(), body[-3000:]
    assert 'id="hex-total"' not in body


def test_a_tampered_form_without_htmx_shows_the_error_in_the_page(client):
    response = client.post(URL, CHARGE | {"other_modifier": "500"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" in body
    assert re.search(r'id="id_other_modifier_error">[^<]+<', body)
    assert 'aria-invalid="true"' in body


def test_a_missing_or_extra_face_is_explained(client):
    body = client.post(URL, CHARGE | {"faces": "3"}, **HTMX).content.decode()
    assert "1 more face" in body
    body = client.post(
        URL, CHARGE | {"faces": "3", "action": "read"}, **HTMX
    ).content.decode()
    assert re.search(r'id="id_faces_error"[^>]*>Enter 2 faces', body)
    body = client.post(URL, CHARGE | {"faces": "3 4 5"}, **HTMX).content.decode()
    assert re.search(r'id="id_faces_error"[^>]*>Enter 2 faces', body)


def test_an_unknown_mode_falls_back_to_shock_with_a_message(client):
    response = client.get(URL + "?mode=melee")
    assert response.status_code == 200
    assert "Unknown combat type" in response.content.decode()
    response = client.post(URL, CHARGE | {"mode": "duel"}, **HTMX)
    assert response.status_code == 200
    assert "Unknown combat type" in response.content.decode()


def test_an_empty_post_is_answered_with_messages_not_a_500(client):
    response = client.post(URL, {}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert re.search(r'id="id_weapon_system_error"[^>]*>[^<]+<', body)
    assert "Traceback" not in body


def test_other_methods_are_refused(client):
    assert client.put(URL).status_code == 405


def test_the_home_page_links_to_the_sheet(client):
    body = client.get("/").content.decode()
    assert 'href="/hex/"' in body


ENGLISH_WORDS = {"the", "and", "of", "to", "is", "with", "for", "on", "by", "or"}
ENGLISH_WORDS |= {"at", "each", "when", "their", "this", "not", "one", "more"}


def english_lines(html: str) -> list[str]:
    """Lines of a page's text with two English words or more."""
    text = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    lines = (line.strip() for line in re.sub(r"<[^>]+>", "\n", text).split("\n"))
    return [
        line
        for line in lines
        if sum(w in ENGLISH_WORDS for w in re.findall(r"[a-z']+", line.lower())) >= 2
    ]


def test_the_french_sheet_has_no_english_sentence_whatever_the_situation(client):
    """#11: no English on a French page, over random sheets of both kinds."""
    import random

    from django import forms

    from battles.forms.hexcombat import FORMS, initial_data

    rng = random.Random(7)
    english = client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert english_lines(english), "the check finds English where there is some"
    assert (
        english_lines(client.get(URL, HTTP_ACCEPT_LANGUAGE="fr").content.decode()) == []
    )
    for _ in range(40):
        mode = rng.choice(sorted(FORMS))
        form_class = FORMS[mode]
        data = {**initial_data(form_class), "mode": mode}
        data["action"] = rng.choice(["roll", "read", ""])
        for name, field in form_class.base_fields.items():
            if isinstance(field, forms.BooleanField):
                data[name] = "on" if rng.random() < 0.3 else ""
            elif isinstance(field, forms.ChoiceField):
                data[name] = rng.choice([value for value, _label in field.choices])
            elif isinstance(field, forms.IntegerField):
                low = field.min_value or 0
                data[name] = str(rng.randint(low, min(field.max_value or 99, low + 12)))
        data = {
            k: ("on" if v is True else "" if v is False else v) for k, v in data.items()
        }
        page = client.post(URL, data, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
        assert english_lines(page) == [], data
