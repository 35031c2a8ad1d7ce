"""What a browser posts to the history pages: the match list's filters and a record to verify."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.play import protocol
from games.play.models import Match, Seat


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
