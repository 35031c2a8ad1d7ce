"""The site's pages and HTTP endpoints, thin adapters over services, selectors and forms.

``rooms`` (lobby, create a room, a room, its seats), ``table`` (the match page, the rack's
question, the card display), ``history`` (match lists, records, replays, /verify/), ``practice``
(practice offline), ``ranked`` (the leaderboard) and ``site`` (health probe, protocol schema).
Writes go through ``games.play.services``; reads through ``games.play.selectors`` (and ``games.learn.records``
for game records and replays); what a browser posts is read by ``games.play.forms``.
"""
