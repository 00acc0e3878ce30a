"""A game at the table: the controller that turns a game's events into steps
(``table_controller``), the sessions it plays through (``table_session``: a local
game; ``remote_session``: a seat at a server's table; ``lessons``: a guided
lesson), the autosave and resume of local games (``session``), the AI in its own
process (``ai_service``, ``live_game``), the scene that draws the table
(``scene``, also the theatre's), the score sheet, and the table's view
(``table_view``, the router's "table" and "game" screens).

May import: ``game.common``, ``engine`` and ``online`` (the client); never a
screen of ``game.screens`` or ``game.theatre``, nor the router: the view leaves
by name (``game.common.navigation``).

Why this cut: a change to how a game is played at the table (a new step, an
animation, a session kind) touches these modules together and no menu."""
