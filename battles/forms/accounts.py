"""Sign-up and sign-in forms: Django's own, with the app's field attributes."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from battles.validation import CheckedFields


class SignUpForm(CheckedFields, UserCreationForm):
    """A username and a password typed twice (Django's checks and validators)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {
                "autocapitalize": "none",
                "autocomplete": "username",
                "spellcheck": "false",
            }
        )


class SignInForm(CheckedFields, AuthenticationForm):
    """A username and a password; a wrong pair says so above the fields."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {"autocapitalize": "none", "spellcheck": "false"}
        )
