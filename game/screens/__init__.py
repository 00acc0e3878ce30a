"""The screens around the table: the menu and the new-game set-up (``menu``),
``message``, ``rules`` (and its content, ``rules_content``), ``settings``,
your record (``record_view``), play online (``online``, its lobby model
``online_lobby``, the game's own server ``home_server``) and learn to play
(``lessons_view``).

May import: ``game.table`` (the autosave, the online session, the lessons),
``game.common`` and ``engine``; a screen never imports another screen (the
independence contract): it asks for one by name (``game.common.navigation``)
and the router opens it.

Why this cut: each is one screen, read and changed alone; what they share is in
``game.common``."""
