"""Run under Xvfb by tests/test_xvfb.py: the real resizable window, letterboxed.

Prints one JSON line with what it saw.  Not a test module itself (no X server
in the normal test run)."""

from __future__ import annotations

import json
import sys


def main() -> int:
    from game.app import make_window, prepare_environment

    prepare_environment()
    import arcade
    from pyglet.window import key

    from game.common import layout
    from game.common.settings import Settings
    from game.screens.menu import MenuView

    window = make_window(Settings())
    menu = MenuView(window)
    window.show_view(menu)
    out: dict = {"headless": bool(arcade.headless)}
    for size in ((1280, 720), (1600, 700), (800, 900)):
        window.set_size(*size)
        for _ in range(5):
            window.dispatch_events()
        menu.on_resize(*window.get_size())
        # as the event loop does: the GL drawable takes the new size at a buffer swap
        menu.on_draw()
        window.flip()
        window.dispatch_events()
        menu.on_draw()
        img = arcade.get_image().convert("RGB")
        if len(sys.argv) > 1:
            img.save(f"{sys.argv[1]}-{size[0]}x{size[1]}.png")
        w, h = img.size
        left, bottom, vw, vh = layout.letterbox(w, h)
        top = h - (bottom + vh)  # image rows start at the top
        centre = img.getpixel((w // 2, h // 2))
        if left > 1:  # bars left and right: sample each bar and just inside the table
            bars = [img.getpixel((left // 2, h // 2)), img.getpixel((w - left // 2 - 1, h // 2))]
            inside = [img.getpixel((left + 3, h // 2)), img.getpixel((left + vw - 4, h // 2))]
        elif top > 1:
            bars = [img.getpixel((w // 2, top // 2)), img.getpixel((w // 2, h - top // 2 - 1))]
            inside = [img.getpixel((w // 2, top + 3)), img.getpixel((w // 2, top + vh - 4))]
        else:
            bars, inside = [], [img.getpixel((3, 3)), img.getpixel((w - 4, h - 4))]
        # where the first menu button is on screen, and what a click there maps to
        bx, by = menu.buttons[0].rect[:2]
        sx = left + bx * vw / layout.WIDTH
        sy = bottom + by * vh / layout.HEIGHT
        lx, ly = layout.to_logical(sx, sy, w, h)
        out[f"{size[0]}x{size[1]}"] = {
            "image": [w, h], "viewport": [left, bottom, vw, vh], "centre": centre, "bars": bars, "inside": inside,
            "click_maps_to": [round(lx, 1), round(ly, 1)], "button": [bx, by],
        }
    menu.on_key_press(key.F11, 0)
    for _ in range(5):
        window.dispatch_events()
    out["fullscreen"] = bool(window.fullscreen)
    window.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
