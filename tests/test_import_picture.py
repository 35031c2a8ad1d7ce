"""The import picture of the site (issue 17; docs/architecture.md): imports point downward.

import-linter's contracts (pyproject.toml, ``make lint``) keep the engine pure, keep the site on
the engine's public surface and keep ``games`` and ``accounts`` out of ``remi_site``. What they
cannot say is checked here: no import cycle inside ``games`` (the services queue tasks and the
tasks call the services, but the services queue them by name through ``games.shared.enqueue`` and never
import ``games.tasks``), and none inside the rules engine; the domains' upward ties are the ones
docs/architecture.md names ("The house by domain"), and ``games.models`` gathers every domain's
models.
"""

from __future__ import annotations

import grimp


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root) & modules)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child) & modules)))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_in_games() -> None:
    graph = grimp.build_graph("games", "accounts", "remi_site")
    # The site's modules (the engine's have a test of their own, below), packages included, and
    # imports made inside a function count: none may lead back to where it started.
    site = {
        module
        for module in graph.modules
        if module.startswith("games.") and not module.startswith("games.engine.")
    }
    assert _cycles(graph, site) == []


def test_no_module_of_games_imports_the_project_wiring() -> None:
    graph = grimp.build_graph("games", "accounts", "remi_site")
    importers = {
        module
        for module in graph.find_modules_that_directly_import("remi_site")
        | {
            m
            for child in graph.find_children("remi_site")
            for m in graph.find_modules_that_directly_import(child)
        }
        if module.startswith(("games", "accounts"))
    }
    assert importers == set()


#: The domains above play (docs/architecture.md, "The house by domain").
ABOVE_PLAY = ("games.learn", "games.ranked", "games.practice", "games.chat")


def test_play_imports_no_domain_above_it() -> None:
    """Play reaches up nowhere (docs/architecture.md, "The house by domain"): what ranked and
    learn do at play's moments (a match's end, a seat leaving, each sweep) they register when
    Django starts (``games/apps.py``), and play calls what is registered."""
    graph = grimp.build_graph("games", cache_dir=None)
    ties = {
        (module, imported)
        for module in graph.find_descendants("games.play")
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith(ABOVE_PLAY)
    }
    assert ties == set()


def test_what_ranked_and_learn_do_at_plays_moments_is_registered_when_django_starts() -> None:
    from games.learn.services.daily import daily_reveal
    from games.play.services import clock, core
    from games.ranked import ratings

    assert core._match_over_hooks == [ratings.on_match_over]
    assert core._leave_ends == [ratings.a_leave_aborts]
    assert clock._sweep_jobs == {"revealing the deals of past days": daily_reveal}


def test_the_app_models_module_gathers_every_domains_models() -> None:
    """Django finds an app's models in ``games.models``: it imports each domain's models module,
    and nothing in the domains imports it (code imports a model from its domain)."""
    graph = grimp.build_graph("games", cache_dir=None)
    domains_models = {
        module for module in graph.modules if module.startswith("games.") and module.endswith(".models")
    } - {"games.models"}
    assert domains_models == {f"games.{d}.models" for d in ("play", "learn", "ranked", "chat")}
    assert graph.find_modules_directly_imported_by("games.models") == domains_models
    importers = graph.find_modules_that_directly_import("games.models")
    assert not {m for m in importers if m.startswith(("games.play", "games.shared", *ABOVE_PLAY))}


def test_no_import_cycle_in_the_engine() -> None:
    """The engine imports downward too (cards, melds, the search, rules, scoring, the state, the
    families, the variants, the bots, the tools), a package with its parts included, and imports
    made for the type checker count: the search and the rules' hooks name what they read of a rule
    set and of a match as protocols of their own (``search.Rules``, ``rules.MatchFacts``)."""
    graph = grimp.build_graph("games", cache_dir=None)
    engine = {module for module in graph.modules if module.startswith("games.engine")}
    assert _cycles(graph, engine) == []
