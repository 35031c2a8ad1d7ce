"""The site's forms: create a room (its option fields come from the chosen variant's
``option_specs()``), take a seat, add a bot. Practice's form builds on these option fields
(``games.practice.forms``); the history filters and /verify/ are learn's (``games.learn.forms``).

The create-room form only converts what the browser sends into Python values; whether a combination is
allowed is the engine's decision, made in ``services.room_create`` (a ``BadOptionsError`` is shown
as a form error). So ranges are given to the browser as ``min``/``max`` hints, not enforced here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.play.models import Seat
from games.play.services import TURN_SECONDS_RANGE
from games.shared import i18n_rules
from games.shared.text import MAX_MARKS, chat_clean, marks_run

#: The option that is the table size: the form's "seats" field sets it.
SEATS_OPTION = "max_players"
OPTION_PREFIX = "option_"


def variant_choices() -> list[tuple[str, str]]:
    return [(name, engine.variant(name).title) for name in engine.variant_names()]


def variant_or_default(name: str | None) -> str:
    """``name`` if it is a known variant, else the first one."""
    names = engine.variant_names()
    return name if name in names else names[0]


def option_specs(variant: str) -> list[dict[str, Any]]:
    return type(engine.variant(variant)).option_specs()


def _bounds(spec: dict[str, Any]) -> dict[str, Any]:
    return {key: spec[key] for key in ("min", "max") if spec.get(key) is not None}


def _option_field(spec: dict[str, Any]) -> forms.Field:
    label = spec["name"].replace("_", " ").capitalize()
    # The engine's English words, translated when the catalog has them (games/shared/i18n_rules.py).
    common: dict[str, Any] = {
        "label": gettext(label),
        # Its rule ids as a tag after the sentence (i18n_rules.help_text).
        "help_text": i18n_rules.help_text(spec["help"]),
        "initial": spec["default"],
    }
    kind = spec["type"]
    if spec.get("choices") is not None:
        # Word values in the page's language ("shared" -> "wspólna wygrana"), never the code.
        choices = [(value, i18n_rules.option_value(str(value))) for value in spec["choices"]]
        if spec["nullable"]:
            choices.insert(0, ("", i18n_rules.empty_value(spec["name"])))
        return forms.TypedChoiceField(
            choices=choices,
            coerce=int if kind == "int" else str,
            empty_value=None,
            required=not spec["nullable"],
            **common,
        )
    if kind == "bool":
        return forms.BooleanField(required=False, **common)
    if kind == "int":
        # No min_value/max_value: the engine checks ranges and its message is the one shown.
        return forms.IntegerField(
            required=not spec["nullable"], widget=forms.NumberInput(attrs=_bounds(spec)), **common
        )
    return forms.CharField(required=not spec["nullable"], empty_value=None, **common)


class RoomForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, initial=_("My table"))
    variant = forms.ChoiceField(choices=variant_choices, widget=forms.HiddenInput)
    seats = forms.IntegerField(
        label=_("Seats"), help_text=_("How many players sit at the table, bots included."), initial=2
    )
    turn_seconds = forms.IntegerField(
        label=_("Seconds per turn"),
        initial=60,
        widget=forms.NumberInput(attrs={"min": TURN_SECONDS_RANGE[0], "max": TURN_SECONDS_RANGE[1]}),
    )
    ranked = forms.BooleanField(
        label=_("Ranked"), required=False, help_text=_("The result counts for the players' ratings.")
    )
    private = forms.BooleanField(
        label=_("Private"),
        required=False,
        help_text=_("Not listed in the lobby; players join with the room's code."),
    )

    def __init__(self, *args: Any, variant: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.variant_name = variant_or_default(variant)
        self.rules = engine.variant(self.variant_name)
        self.fields["variant"].initial = self.variant_name
        self.specs = option_specs(self.variant_name)
        for spec in self.specs:
            if spec["name"] == SEATS_OPTION:
                seats = self.fields["seats"]
                seats.help_text = i18n_rules.help_text(spec["help"])
                seats.widget.attrs.update(_bounds(spec))
                continue
            self.fields[OPTION_PREFIX + spec["name"]] = _option_field(spec)

    def clean_name(self) -> str:
        """Cleaned as a chat line (everyone reads it in the lobby): composed, without control or
        direction-turning characters, and never a letter under more than ``MAX_MARKS`` marks."""
        name = chat_clean(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(self.fields["name"].error_messages["required"], code="required")
        if marks_run(name) > MAX_MARKS:
            raise forms.ValidationError(gettext("Too many accents on one letter."), code="too_many_marks")
        return name

    def clean_variant(self) -> str:
        # The option fields were built for the variant of the page, so the two must agree.
        value: str = self.cleaned_data["variant"]
        if value != self.variant_name:
            raise forms.ValidationError(_("The variant changed; check its options again."))
        return value

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def base_fields_shown(self) -> list[forms.BoundField]:
        return [self[name] for name in ("name", "seats", "turn_seconds", "ranked", "private")]

    def room_kwargs(self) -> dict[str, Any]:
        """The arguments of ``services.room_create`` (without ``owner``), from cleaned data."""
        data = self.cleaned_data
        options = {
            name.removeprefix(OPTION_PREFIX): value
            for name, value in data.items()
            if name.startswith(OPTION_PREFIX)
        }
        if any(spec["name"] == SEATS_OPTION for spec in self.specs):
            options[SEATS_OPTION] = data["seats"]
        return {
            "name": data["name"],
            "variant": data["variant"],
            "options": options,
            "seats": data["seats"],
            "turn_seconds": data["turn_seconds"],
            "ranked": data["ranked"],
            "private": data["private"],
        }


class SeatForm(forms.Form):
    """Take a seat: a given one, or the first free one; ``code`` for a private room."""

    index = forms.IntegerField(min_value=0, required=False)
    code = forms.CharField(max_length=12, required=False)


class BotForm(forms.Form):
    index = forms.IntegerField(min_value=0)
    level = forms.ChoiceField(choices=Seat.BotLevel.choices, initial=Seat.BotLevel.NORMAL)
