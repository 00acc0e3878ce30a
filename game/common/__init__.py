"""The shared pieces every screen uses: the words and catalogs (``i18n``,
``words``), where things are (``paths``), ``constants``, ``fonts``, ``sound``,
the player's ``settings`` (and the AI ``levels`` on offer), the card
``textures``, the logical screen and its ``layout`` and seat ``position``,
``paint`` (PIL pictures), ``ui`` (the base view and its widgets), ``damage``
(redrawing only what changed), ``record`` (your record's database) and
``navigation`` (asking the window for a screen by name).

May import: ``engine``, ``art``, ``sounds`` and itself; never a screen, the
table, the router or the window (the bottom layer of game/'s contract).

Why this cut: these change with the look and the language of every screen at
once, not with any one screen; a screen is written on top of them."""
