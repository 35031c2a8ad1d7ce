"""Template filters for words the models store in English: ``{% load remi_i18n %}``.

Choice values (``Room.Status``, ``Match.Status``, ``Seat.BotLevel``) are stored identifiers and
their model labels are English; ``{{ room.status|choice_label }}`` shows them in the page's
language without touching the models (or their migrations).
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext_lazy

from games.shared import i18n_rules

register = template.Library()

CHOICE_LABELS = {
    # Room.Status and Match.Status
    "open": pgettext_lazy("status", "open"),
    "playing": pgettext_lazy("status", "playing"),
    "finished": pgettext_lazy("status", "finished"),
    "closed": pgettext_lazy("status", "closed"),
    "abandoned": pgettext_lazy("status", "abandoned"),
    # Seat.BotLevel
    "easy": pgettext_lazy("bot level", "easy"),
    "normal": pgettext_lazy("bot level", "normal"),
    "hard": pgettext_lazy("bot level", "hard"),
}


@register.filter
def choice_label(value: object) -> str:
    """The translated label of a stored choice value; an unknown value is shown as it is."""
    label = CHOICE_LABELS.get(str(value))
    return str(label) if label is not None else str(value)


MELD_KINDS = {"set": pgettext_lazy("meld", "set"), "run": pgettext_lazy("meld", "run")}

PHASES = {
    "draw": pgettext_lazy("phase", "draw"),
    "play": pgettext_lazy("phase", "play"),
    "over": pgettext_lazy("phase", "over"),
}


@register.filter
def meld_kind(value: object) -> str:
    """A table meld's kind ("set", "run") in the page's language."""
    label = MELD_KINDS.get(str(value))
    return str(label) if label is not None else str(value)


@register.filter
def phase_label(value: object) -> str:
    """A turn's phase ("draw", "play", "over") in the page's language."""
    label = PHASES.get(str(value))
    return str(label) if label is not None else str(value)


@register.filter
def score_notes(notes: object) -> str:
    """A score line's notes in the page's language (``i18n_rules.score_note``), comma separated,
    each followed by the rule ids it cites as a small tag outside the sentence (docs/i18n.md)."""
    if not isinstance(notes, list | tuple):
        return ""
    parts = []
    for note in notes:
        rules = i18n_rules.score_note_rules(str(note))
        tag = format_html(' <small class="rule-ref">{}</small>', ", ".join(rules)) if rules else ""
        parts.append(format_html("{}{}", i18n_rules.score_note(str(note)), tag))
    return mark_safe("; ".join(parts))


@register.filter
def variant_title(title: object) -> str:
    """A variant's title (the engine's English, e.g. "Gin rummy") in the page's language."""
    return gettext(str(title))
