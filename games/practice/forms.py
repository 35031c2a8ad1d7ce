"""The practice page's form (``/practice/``): one variant's seats, bot levels and options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.play.forms import OPTION_PREFIX, SEATS_OPTION, _option_field, option_specs
from games.play.models import Seat


class PracticeForm(forms.Form):
    """One variant's part of the practice form (``/practice/``): seats, each bot's level and the
    variant's options, the same option fields as the create-room form.

    Never posted: the page is kept offline, and its script reads the fields and hands them to
    the engine in the browser (docs/practice.md), which decides whether the options are allowed.
    """

    def __init__(self, *args: Any, variant: str, **kwargs: Any) -> None:
        kwargs["prefix"] = variant
        super().__init__(*args, **kwargs)
        self.variant_name = variant
        self.rules = engine.variant(variant)
        self.specs = option_specs(variant)
        low, high = self.rules.min_players, self.rules.max_players
        self.fields["seats"] = forms.IntegerField(
            label=_("Seats"),
            help_text=_("You and the bots."),
            initial=min(max(low, 4 if high >= 4 else high), high),
            widget=forms.NumberInput(attrs={"min": low, "max": high, "data-seats": "1"}),
        )
        levels = [(value, gettext(label)) for value, label in Seat.BotLevel.choices]
        for seat in range(1, high):
            self.fields[f"level_{seat}"] = forms.ChoiceField(
                label=_("Bot %(number)s") % {"number": seat + 1},
                choices=levels,
                initial=Seat.BotLevel.NORMAL,
                widget=forms.Select(attrs={"data-level": str(seat)}),
            )
        for spec in self.specs:
            if spec["name"] == SEATS_OPTION:
                continue  # the seats field sets it
            field = _option_field(spec)
            field.widget.attrs["data-option"] = spec["name"]
            self.fields[OPTION_PREFIX + spec["name"]] = field

    def base_fields_shown(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith(OPTION_PREFIX)]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]
