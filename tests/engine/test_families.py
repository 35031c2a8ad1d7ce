"""One package per family (docs/engine.md, "Families, rule sets and cycles"): each family named in
``rules.FAMILIES`` has its cycle in the registry, and its rule sets, cycle state and bots in its
own package; nothing of a family lives in another's."""

from __future__ import annotations

from games.engine import new_game, variant, variant_names
from games.engine.bots.registry import BOTS, TUNED
from games.engine.registry import CYCLES
from games.engine.rules import FAMILIES, family_of


def test_every_family_has_one_cycle_and_the_rule_sets_play_them() -> None:
    assert sorted(CYCLES) == sorted(FAMILIES)
    assert all(cycle.name == family for family, cycle in CYCLES.items())
    assert {family_of(name) for name in variant_names()} == set(FAMILIES)


def test_a_rule_set_its_cycle_and_its_cycle_state_are_in_its_family_package() -> None:
    for name in variant_names():
        rules = variant(name)
        package = f"games.engine.{rules.family}."
        assert type(rules).__module__.startswith(package), name
        assert type(CYCLES[rules.family]).__module__ == f"{package}cycle", name
        state = new_game(rules, rules.min_players, seed=name)
        assert type(state.cycle).__module__ == f"{package}state", name


def test_a_family_bot_is_in_its_family_package_and_the_easy_level_is_shared() -> None:
    for (family, level), module in BOTS.items():
        expected = "bots.easy" if level == "easy" else f"{family}.bots.{level}"
        assert module == expected, (family, level)
    for (name, level), module in TUNED.items():
        assert module.startswith(f"{family_of(name)}.bots.{level}_"), (name, level)
