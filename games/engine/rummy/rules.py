"""What the rule sets of the rummy family share (docs/engine.md, "Families, rule sets and cycles"):
Remik 51, Remi, Rummy 500 and Remik 40 are :class:`RummyRules`, whose attributes and hooks the
rummy cycle (:mod:`.cycle`) reads.
"""

from __future__ import annotations

from typing import Any

from ..rules import MatchFacts, Rules

__all__ = ["RummyRules", "rummy_rules"]


class RummyRules(Rules):
    """A rule set of the rummy family."""

    family = "rummy"

    def table_facts(self, match: MatchFacts) -> dict[str, Any]:
        """What the rule set's scoring shows in every view, public facts only (Rummy 500's running
        tally, Remik 40's prize pool): nothing by default. The rummy cycle's ``view_extra`` adds
        it, the one hook that says what a family adds to a view."""
        return {}


def rummy_rules(rules: Rules) -> RummyRules:
    """``rules`` as a rule set of the rummy family (the rummy cycle plays no other)."""
    if not isinstance(rules, RummyRules):
        raise TypeError(f"{rules.name} does not play the rummy cycle")
    return rules
