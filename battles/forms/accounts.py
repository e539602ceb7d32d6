"""Account forms: Django's own (sign-up, sign-in, password change), with the
app's field attributes, and the account page's and recovery's own."""

from __future__ import annotations

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    SetPasswordForm,
    UserCreationForm,
)
from django.utils.translation import gettext_lazy as _

from battles.validation import CheckedFields, CheckedForm


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


class NamesForm(CheckedForm):
    """The display name other players see, and the names a federation asks."""

    display_name = forms.CharField(
        label=_("Display name (what other players see)"),
        max_length=60,
        required=False,
        help_text=_("Your login stays the same; leave empty to show your login."),
    )
    first_name = forms.CharField(label=_("First name"), max_length=150, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=150, required=False)


class CurrentPasswordForm(CheckedForm):
    """A change a stolen session must not make: the current password first."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("Your password was entered incorrectly."), code="password_incorrect"
            )
        return password


class EmailForm(CurrentPasswordForm):
    """An address for a password reset by e-mail (where the server sends mail):
    the address that resets the password, so changed with the password."""

    email = forms.EmailField(
        label=_("E-mail address"),
        required=False,
        help_text=_("Only used to send you a password reset link."),
    )
    field_order = ("email", "password")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})


class ChangePasswordForm(CheckedFields, PasswordChangeForm):
    """Django's own: the current password, then the new one twice."""


class ForgottenPasswordForm(CheckedFields, SetPasswordForm):
    """On a device where the member is signed in: a new password, twice."""


class NewCodesForm(CurrentPasswordForm):
    """New recovery codes undo the saved ones: the current password first,
    so that a stolen session cannot make its own."""


class RecoverForm(CheckedForm):
    """The username, one recovery code and a new password twice."""

    username = forms.CharField(label=_("Username"), max_length=150)
    code = forms.CharField(
        label=_("Recovery code"),
        max_length=40,
        help_text=_("One of the codes you saved when you made your account."),
    )
    new_password1 = forms.CharField(
        label=_("New password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    new_password2 = forms.CharField(
        label=_("New password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(
            {
                "autocapitalize": "none",
                "autocomplete": "username",
                "spellcheck": "false",
            }
        )
        self.fields["code"].widget.attrs.update(
            {
                "autocapitalize": "characters",
                "autocomplete": "off",
                "spellcheck": "false",
            }
        )

    def clean(self):
        data = super().clean()
        one, two = data.get("new_password1"), data.get("new_password2")
        if one and two and one != two:
            self.add_error("new_password2", _("The two passwords differ."))
        elif one:
            try:
                password_validation.validate_password(one)
            except forms.ValidationError as error:
                self.add_error("new_password1", error)
        return data
