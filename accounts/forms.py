from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.models import Language, User


class RegistrationForm(forms.Form):
    """Checks the input's shape; ``accounts.services.user_register`` checks uniqueness and the
    password rules, and the view puts its errors back on these fields."""

    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text=_("Up to 150 characters: letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label=_("E-mail"), widget=forms.EmailInput(attrs={"autocomplete": "email"}), max_length=254
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password confirmation"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        password1, password2 = cleaned.get("password1"), cleaned.get("password2")
        if password1 and password2 and password1 != password2:
            self.add_error("password2", _("The two passwords do not match."))
        return cleaned

    def add_service_errors(self, error: ValidationError) -> None:
        """Show a ``ValidationError`` from the service on the matching fields."""
        field_names = {"password": "password1"}
        for field, messages in error.message_dict.items():
            self.add_error(field_names.get(field, field if field in self.fields else None), messages)


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=Language.choices)

    @classmethod
    def for_user(cls, user: User, data: Mapping[str, Any] | None = None) -> "PreferencesForm":
        return cls(data, initial={"language": user.language})
