"""The site's forms: create a room (its option fields come from the chosen variant's
``option_specs()``), take a seat, add a bot, practice's options, the history filters and /verify/.

The create-room form only converts what the browser sends into Python values; whether a combination is
allowed is the engine's decision, made in ``services.room_create`` (a ``BadOptionsError`` is shown
as a form error). So ranges are given to the browser as ``min``/``max`` hints, not enforced here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine, protocol
from games.play.models import Match, Seat
from games.services import TURN_SECONDS_RANGE
from games.shared import i18n_rules

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


class HistoryFilterForm(forms.Form):
    """The filters of the match lists (a plain GET form)."""

    variant = forms.ChoiceField(label=_("Variant"), required=False)
    kind = forms.ChoiceField(
        label=_("Ranked or casual"),
        required=False,
        choices=(("", _("Any")), ("ranked", _("Ranked")), ("casual", _("Casual"))),
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    opponent = forms.CharField(label=_("Opponent"), required=False, max_length=150)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        variants = [(name, gettext(engine.variant(name).title)) for name in engine.variant_names()]
        self.fields["variant"].choices = [("", _("Any")), *variants]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", gettext("The end date is before the start date."))
        return data

    def apply(self, matches: QuerySet[Match]) -> QuerySet[Match]:
        """The matches that pass the valid filters (an invalid field filters nothing)."""
        data = self.cleaned_data if self.is_bound else {}
        if data.get("variant"):
            matches = matches.filter(room__variant=data["variant"])
        if data.get("kind") == "ranked":
            matches = matches.filter(room__ranked=True)
        elif data.get("kind") == "casual":
            matches = matches.filter(room__ranked=False)
        if data.get("date_from"):
            matches = matches.filter(started__date__gte=data["date_from"])
        if data.get("date_to"):
            matches = matches.filter(started__date__lte=data["date_to"])
        if data.get("opponent"):
            sat = Seat.objects.filter(
                room_id=OuterRef("room_id"), user__username__iexact=data["opponent"].strip()
            )
            matches = matches.filter(Exists(sat))
        return matches


#: The largest record /verify/ reads (pasted or uploaded), in bytes: 1 MB holds about 20,000
#: moves (docs/record.md, "Limits").
VERIFY_MAX_BYTES = 1024 * 1024
#: The most moves /verify/ replays (a long Remi evening is a few thousand).
VERIFY_MAX_MOVES = 20_000
#: How deeply a record's JSON may nest (a record's move with lay-offs is 6 levels down).
VERIFY_MAX_NESTING = 32


class VerifyForm(forms.Form):
    """A game record to verify, pasted or uploaded; ``cleaned_data["document"]`` is its JSON."""

    record = forms.CharField(label=_("Paste a game record (JSON)"), required=False, widget=forms.Textarea)
    file = forms.FileField(label=_("or upload one"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        text = data.get("record") or ""
        if upload is not None:
            if upload.size > VERIFY_MAX_BYTES:
                raise forms.ValidationError(gettext("The file is too large."), code="too_large")
            raw = upload.read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(gettext("The file is not UTF-8 text."), code="not_text") from None
        if not text.strip():
            raise forms.ValidationError(gettext("Paste a record or choose a file."), code="empty")
        try:
            document = protocol.read_json(text, max_chars=VERIFY_MAX_BYTES, max_nesting=VERIFY_MAX_NESTING)
        except protocol.MalformedMessageError as error:
            raise forms.ValidationError(
                # The parser's own words where there are some ("Expecting value: line 1 ...").
                gettext("This is not JSON: %(error)s") % {"error": error.__cause__ or error},
                code="not_json",
            ) from None
        if not isinstance(document, dict):
            raise forms.ValidationError(gettext("A game record is a JSON object."), code="not_record")
        moves = document.get("moves")
        if isinstance(moves, list) and len(moves) > VERIFY_MAX_MOVES:
            raise forms.ValidationError(
                gettext("This record has more than %(limit)s moves.") % {"limit": VERIFY_MAX_MOVES},
                code="too_long",
            )
        data["document"] = document
        return data
