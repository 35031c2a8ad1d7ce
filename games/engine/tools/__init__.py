"""Tools around the rules engine, not part of it: the terminal game and record checker
(:mod:`.cli`, ``python -m games.engine``), the engine's benchmarks (:mod:`.bench`, ``make bench``)
and the bots' tournaments (:mod:`.tournament`, ``make bench-bots``).

Nothing in the engine imports them, and neither does the site (an import contract says so).
"""
