"""Run under Xvfb by tests/test_xvfb.py: the table in a real window redrawn in
pieces (an offscreen framebuffer copied to the window, ``fbo`` mode), letterboxed,
against the same frames drawn whole.  Prints one JSON line.  Not a test module."""

from __future__ import annotations

import json
import sys


def main() -> int:
    from game.app import make_window, prepare_environment

    prepare_environment()
    from game import damage, session
    from game.settings import Settings
    from game.sound import SoundBoard
    from game.views.table_view import TableView
    from tests.test_gui_helpers import damaged_vs_whole

    window = make_window(Settings())
    game = session.new_game(partner="random", opponents="random", match=False, seed=9, human=False,
                            players=["random"] * 4)
    view = TableView(window, game, session.ai_players(game), human_seats=frozenset(),
                     face_up_seats=frozenset({0}), settings=Settings(speed=8.0, auto_advance=True, sound=False),
                     sound=SoundBoard(False), auto_continue=True)
    window.show_view(view)
    out: dict = {"mode": damage.redraw_mode(window), "sizes": {}}
    for size, frames in (((1600, 700), 240), ((1280, 720), 200)):
        window.set_size(*size)
        for _ in range(5):
            window.dispatch_events()
        view.on_resize(*window.get_size())
        view.on_draw()
        window.flip()
        window.dispatch_events()
        compared = pieces = 0
        bad = []
        for i in range(frames):
            view.on_update(1 / 60)
            if i % 2:
                view.on_draw()
                window.flip()
                continue
            n, rects, box = damaged_vs_whole(window, view)
            window.flip()
            compared += 1
            pieces += bool(rects)
            if n:
                bad.append([i, n, box])
        out["sizes"][f"{size[0]}x{size[1]}"] = {"compared": compared, "pieces": pieces, "bad": bad[:5],
                                                "framebuffer": list(window.get_framebuffer_size())}
    view.close()
    window.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
