"""A game at the table, in three layers.  The screen: ``table_view`` (the router's
"table" and "game" screens) and what it draws over the felt (``table_texts``,
``hand_marks``, ``table_buttons``, ``score_panel`` and ``review_panel`` beside
``score_sheet``).  The flow, with no arcade: ``table_controller`` and its rooms
(``steps``, ``discard_pick``, ``key_cursor``, ``hints``, ``rewind``, ``deal_end``,
``notices``, ``ai_turns``; their contracts in ``table_api``).  The sessions it plays
through: ``table_session`` (the protocol, and a local game), ``remote_session`` (a
seat at a server's table), ``lessons`` (a guided lesson); ``session`` (autosave and
resume), ``ai_service`` and ``live_game`` (the AI in its own process).  The card
scene, also the theatre's: the ``scene`` package.

May import: ``game.common``, ``engine`` and ``online`` (the client); never a
screen of ``game.screens`` or ``game.theatre``, nor the router: the view leaves
by name (``game.common.navigation``).

Why this cut: a change to how a game is played at the table (a new step, an
animation, a session kind) touches these modules together and no menu."""
