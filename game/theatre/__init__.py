"""Games seen again: the replay list and its browser (``replay_list``,
``replay_browser``, with its page of rows ``replay_rows`` and its delete question
``replay_question``), the viewer of a replay or of an AI game as it is played
(``theatre``, ``theatre_model``: the timeline, ``trick_list``: the deal's tricks
beside the trick), and the review of a deal
(``review_model``, ``review_view``: the viewer in review mode, with its panel
``review_panel``, its chart ``review_chart``, its framed cards ``review_marks`` and
their colours ``review_style``).

May import: ``game.table`` (the scene, the live AI game, the AI service),
``game.common`` and ``engine``; never a screen of ``game.screens``, the table's
view, nor the router: its screens open each other by name.  The one import
between its screens is the review's: ``ReviewView`` is a ``ViewerView``.

Why this cut: replays, the viewer and the review change together (the timeline,
the seek bar, the tricks list), apart from the table where a game is played."""
