"""Run under Xvfb by tests/test_xvfb.py: the table in a real window redrawn in
pieces, letterboxed and not, against the same frames drawn whole: both what the
back buffer keeps and what the X window shows.  Prints one JSON line; with an
argument, saves the first differing pair of pictures under that prefix.  Not a
test module."""

from __future__ import annotations

import json
import sys


def shown_pixels(window) -> bytes:
    """What the X window shows (XGetImage), as RGB rows bottom first like GL reads."""
    import ctypes

    from pyglet.libs.x11 import xlib

    xlib.XSync(window._x_display, False)
    w, h = window.get_framebuffer_size()
    img = xlib.XGetImage(window._x_display, window._window, 0, 0, w, h, xlib.XAllPlanes(), xlib.ZPixmap)
    im = img.contents
    assert im.bits_per_pixel == 32, im.bits_per_pixel
    data = ctypes.c_void_p.from_buffer(im, type(im).data.offset).value  # the pointer, not bytes
    raw = ctypes.string_at(data, im.bytes_per_line * h)
    xlib.XFree(data)  # XDestroyImage is a C macro: free the data, then the struct
    xlib.XFree(img)
    rows = []
    for y in range(h - 1, -1, -1):  # X rows start at the top
        row = raw[y * im.bytes_per_line: y * im.bytes_per_line + 4 * w]
        rgb = bytearray(3 * w)
        rgb[0::3], rgb[1::3], rgb[2::3] = row[2::4], row[1::4], row[0::4]  # BGRX
        rows.append(bytes(rgb))
    return b"".join(rows)


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
        shown_bad = []
        for i in range(frames):
            view.on_update(1 / 60)
            if i % 2:
                view.on_draw()
                window.flip()
                continue
            # what the window shows after this frame is presented...
            view.on_draw()
            rects = view.last_damage
            window.flip()
            shown = shown_pixels(window)
            # ...is the same frame drawn whole; and so is the kept back buffer
            view._damage.invalidate()
            view.on_draw()
            whole = window.ctx.screen.read(components=3)
            window.flip()
            compared += 1
            pieces += bool(rects)
            if shown != whole:
                shown_bad.append(i)
                if len(sys.argv) > 1 and len(shown_bad) == 1:
                    from PIL import Image

                    fw, fh = window.get_framebuffer_size()
                    for name, data in (("shown", shown), ("whole", whole)):
                        Image.frombytes("RGB", (fw, fh), data).transpose(
                            Image.Transpose.FLIP_TOP_BOTTOM).save(f"{sys.argv[1]}-{fw}x{fh}-{name}.png")
            view.on_update(0)
            n, _rects, box = damaged_vs_whole(window, view)
            window.flip()
            if n:
                bad.append([i, n, box])
        out["sizes"][f"{size[0]}x{size[1]}"] = {"compared": compared, "pieces": pieces, "bad": bad[:5],
                                                "shown_bad": shown_bad[:5],
                                                "framebuffer": list(window.get_framebuffer_size())}
    view.close()
    window.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
