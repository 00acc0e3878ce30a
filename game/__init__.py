"""The Arcade table of Tarocchi (presentation only; the rules live in ``engine``).

Its rooms, from the top (docs/ARCHITECTURE.md; the arrows are import-linter
contracts in pyproject.toml):

* ``cli``, ``commands``, ``autoplay``, ``replay_command``, ``i18n_tools``: the
  commands of ``tarocchi`` that open the window or drive it;
* ``app``: the window, ``router``: the one place that knows every screen by name;
* ``screens/``, ``theatre/``: the screens (menus, rules, settings, record, online,
  lessons; replays, the viewer and the review), independent of each other;
* ``table/``: a game being played at the table (controller, sessions, scene, view);
* ``common/``: the shared pieces (words, paths, fonts, sound, settings, layout, widgets).

Every ``__init__`` of game/ imports nothing: one that imported its submodules
would make an import cycle with each of them."""
