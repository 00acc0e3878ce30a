"""The rules of trick-taking tarot games as an event-sourced core (no UI imports).

A game is one :class:`~engine.ruleset.Ruleset` (the games are listed in
:mod:`engine.variants`); commands are judged into events
(:func:`engine.state.judge`), events folded into immutable states, and a seat
sees a view of them (:mod:`engine.view`); the AI levels play from views
(:mod:`engine.players` lists them).
"""
