"""Run under Xvfb by tests/test_xvfb.py: the table in a real window redrawn in
pieces, letterboxed and not, through a view switch and a fullscreen switch.

For each frame it checks what the X window shows (XGetImage) against the kept
picture (the back buffer, or the offscreen one in ``fbo`` mode), over runs of
frames drawn only in pieces; every tenth frame it checks the kept picture
against the same frame drawn whole; and once, that only the redrawn boxes are
shown (a mark left outside them in the back buffer must not reach the window).
It counts buffer swaps.  Prints one JSON line; with an argument, saves the
first differing pair of pictures under that prefix.  Not a test module.
"""

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


def kept_pixels(window) -> bytes:
    """The picture the window keeps between frames."""
    from game.common import damage

    if damage.redraw_mode(window) == "fbo":
        return window._tarocchi_fbo.read(components=3)
    return window.ctx.screen.read(components=3)


def main() -> int:
    from game.app import make_window, prepare_environment

    prepare_environment()
    from pathlib import Path

    from engine.replay import read_replay
    from game.common import damage
    from game.common.settings import Settings
    from game.common.sound import SoundBoard
    from game.table import session
    from game.table.table_view import TableView
    from game.theatre.theatre import ViewerView
    from tests.test_gui_helpers import damaged_vs_whole

    window = make_window(Settings())
    check = _Check(window, damaged_vs_whole)  # counts swaps from here
    game = session.new_game(partner="random", opponents="random", match=False, seed=9, human=False,
                            players=["random"] * 4)
    table = TableView(window, game, session.ai_players(game), human_seats=frozenset(),
                      face_up_seats=frozenset({0}), settings=Settings(speed=8.0, auto_advance=True, sound=False),
                      sound=SoundBoard(False), auto_continue=True)
    window.show_view(table)
    check.out["mode"] = damage.redraw_mode(window)
    check.settle_size((1200, 650))  # letterboxed at a scale of 0.9, within a 1280x720 screen
    check.run("1200x650", table, 240)
    check.out["mark_shown"] = check.mark_outside_boxes(table)
    check.settle_size((1280, 720))
    swaps_before = check.swaps
    check.run("1280x720", table, 200)
    check.out["swaps_in_a_run"] = check.swaps - swaps_before
    # a view switch to the theatre, which draws unseen while it warms up
    viewer = ViewerView(window, read_replay(Path(__file__).parent.parent / "golden" / "single-seed-42.jsonl"),
                        face_up=True, speed=4.0)
    window.show_view(viewer)
    viewer.toggle_play()
    check.run("theatre", viewer, 150)
    window.show_view(table)
    check.run("back to the table", table, 60)
    window.set_fullscreen(True)
    for _ in range(5):
        window.dispatch_events()
    table.on_resize(*window.get_size())
    check.run("fullscreen", table, 90)
    table.close()
    window.close()
    print(json.dumps(check.out))
    return 0


class _Check:
    """The runs of frames on one window, their findings in ``out`` (printed as JSON)."""

    def __init__(self, window, damaged_vs_whole) -> None:
        self.window = window
        self.damaged_vs_whole = damaged_vs_whole
        self.out: dict = {"mode": None, "runs": {}}  # the mode once a view is shown
        self.saved = False
        self.swaps = 0
        swap = window.context.flip

        def counted_swap():
            self.swaps += 1
            swap()

        window.context.flip = counted_swap

    def save(self, name, a, b) -> None:
        """With an argument, the first differing pair of pictures, as PNG files."""
        if len(sys.argv) > 1 and not self.saved:
            from PIL import Image

            self.saved = True
            fw, fh = self.window.get_framebuffer_size()
            for tag, data in (("shown", a), ("kept", b)):
                Image.frombytes("RGB", (fw, fh), data).transpose(
                    Image.Transpose.FLIP_TOP_BOTTOM).save(f"{sys.argv[1]}-{name}-{tag}.png")

    def run(self, name: str, view, frames: int) -> None:
        window = self.window
        shown_bad, kept_bad = [], []
        compared = pieces = 0
        for i in range(frames):
            view.on_update(1 / 60)
            if i % 10 == 9:  # the kept picture is the frame drawn whole
                n, _rects, box = self.damaged_vs_whole(window, view)
                window.flip()
                if n:
                    kept_bad.append([i, n, box])
                continue
            view.on_draw()
            pieces += bool(view.last_damage)
            window.flip()
            if i % 3 == 0:  # the window shows the kept picture, after frames drawn in pieces only
                compared += 1
                a, b = shown_pixels(window), kept_pixels(window)
                if a != b:
                    shown_bad.append(i)
                    self.save(name, a, b)
        self.out["runs"][name] = {"compared": compared, "pieces": pieces, "shown_bad": shown_bad[:5],
                                  "kept_bad": kept_bad[:5], "framebuffer": list(window.get_framebuffer_size())}

    def settle_size(self, size) -> None:
        window = self.window
        window.set_size(*size)
        for _ in range(5):
            window.dispatch_events()
        window.current_view.on_resize(*window.get_size())
        window.current_view.on_draw()
        window.flip()
        window.dispatch_events()

    def mark_outside_boxes(self, table) -> list[int] | None:
        """Only the redrawn boxes reach the window: a mark left outside them in the back
        buffer does not.  Returns the pixel the window shows at the mark (retained mode)."""
        window = self.window
        for _ in range(200):
            table.on_update(1 / 60)
            table.on_draw()
            boxes = window.present_boxes
            if boxes and self.out["mode"] != "retained":
                break
            if boxes:
                marked = self._mark(table, boxes)
                if marked is not None:
                    return marked
            window.flip()
        return None

    def _mark(self, table, boxes) -> list[int] | None:
        window = self.window
        fw, fh = window.get_framebuffer_size()
        spot = next(((x, y, 6, 6) for x in range(200, fw - 10, 40) for y in range(20, fh - 10, 40)
                     if all(x + 6 < bx or x > bx + bw or y + 6 < by or y > by + bh
                            for bx, by, bw, bh in boxes)), None)
        if spot is None:
            return None
        window.ctx.screen.clear(color=(255, 0, 255), viewport=spot)
        window.flip()
        px = shown_pixels(window)
        x, y = spot[0] + 3, spot[1] + 3
        marked = list(px[(y * fw + x) * 3:(y * fw + x) * 3 + 3])
        table.forget_picture()
        window._exposed = True  # the mark is in the back buffer: show it all again
        return marked


if __name__ == "__main__":
    sys.exit(main())
