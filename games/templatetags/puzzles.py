"""Puzzles on the profile page: ``{% load puzzles %}{% player_puzzles player %}``: the player's
rating per kind of puzzle and their last puzzles, solved or failed (docs/learn.md, "Puzzles")."""

from __future__ import annotations

from typing import Any

from django import template

from games.learn import selectors
from games.learn.models import PuzzleKind

register = template.Library()


@register.inclusion_tag("games/_profile_puzzles.html")
def player_puzzles(player: Any) -> dict[str, Any]:
    mine = selectors.puzzle_kind_ratings(user=player)
    kinds = [
        {"kind": value, "label": label, "mine": mine[value]}
        for value, label in PuzzleKind.choices
        if value in mine
    ]
    return {"kinds": kinds, "history": selectors.puzzle_history(user=player)}
