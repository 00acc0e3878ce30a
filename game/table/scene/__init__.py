"""The card scene: a game's pack on the felt, laid out and moved (``table_scene``:
:class:`~game.table.scene.table_scene.TableScene`), shared by the play table and
the theatre.  Its rooms: the sprites and tweens (``sprites``), the event
animations (``motion``), the seats' plates and the labels (``labels``), the
hands at rest as fan images and strips (``hand_images``), the shadows and glows
(``shadows``), the last trick shown again (``last_trick``).

May import: ``game.common`` and ``engine``; never the table's controller, its
sessions or its view (the theatre draws with it too).

Why this cut: what a player sees of the cards (a new animation, a new label, a
faster way to draw a hand) changes here and nowhere else."""
