"""The knock108 family's bots, one module per level they play (``games.engine.bots.registry``)."""
