"""The fighter line's filters: the same HTML as Django's own helpers would
write, in both languages, whatever the values (written out for speed)."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.formats import localize
from django.utils.html import format_html, format_html_join
from hypothesis import given
from hypothesis import strategies as st

from battles.templatetags.game_tags import characteristics, wound_steps

VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-5000, max_value=5000),
    st.floats(min_value=-2000, max_value=2000, allow_nan=False),
    st.sampled_from(["-", "<b>", "12,5", "l'âme"]),
)
LINES = st.lists(
    st.tuples(st.sampled_from(["MOU", "INI", "A<T", "DÉF'"]), VALUES, VALUES),
    max_size=9,
)


def written_by_django(values) -> str:
    parts = [
        format_html("{} <strong>{}</strong>", code, localize(current))
        if base != current
        else format_html("{} {}", code, localize(current))
        for code, base, current in values
    ]
    return format_html_join(" · ", "{}", ((part,) for part in parts))


@pytest.mark.parametrize("language", ["fr", "en"])
@given(values=LINES)
def test_characteristics_write_what_format_html_and_localize_would(language, values):
    with translation.override(language):
        assert str(characteristics(values)) == str(written_by_django(values))


def test_a_changed_value_is_bold_and_a_french_decimal_has_its_comma():
    with translation.override("fr"):
        line = characteristics([("MOU", 10, 10), ("ATT", 4, 3), ("VOL", 12.5, 12.5)])
    assert str(line) == "MOU 10 · ATT <strong>3</strong> · VOL 12,5"


@pytest.mark.parametrize("steps", range(5))
def test_wound_steps_marks_the_first_steps_taken(steps):
    html = str(wound_steps(steps))
    assert html.count('<span class="step taken"></span>') == steps
    assert html.count('<span class="step"></span>') == 4 - steps
    if 0 < steps < 4:  # the taken ones first
        assert html.rindex("taken") < html.index('<span class="step"></span>')


def test_wound_steps_of_no_number_are_none_taken():
    assert str(wound_steps(None)) == '<span class="step"></span>' * 4
