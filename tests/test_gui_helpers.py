"""Helpers for the GUI tests: drive a view frame by frame, click like a player."""

from __future__ import annotations

import time

import arcade

from engine.state import DISCARD, PLAY


def frames(view, n: int = 1, draw_every: int = 5, dt: float = 1 / 60) -> None:
    for i in range(n):
        view.on_update(dt)
        if draw_every and i % draw_every == 0:
            view.on_draw()


def settle(view, limit: int = 4000, draw_every: int = 6, timeout: float = 120.0) -> int:
    """Run frames until the human may act or the game is over; returns frames run.

    Frames spent waiting for an AI answer (worked out in wall-clock time in the AI
    process, which may be starting up) do not count towards ``limit``: a frame
    costs well under a millisecond when nothing moves.
    """
    t_end = time.monotonic() + timeout
    i = frames = 0
    while frames < limit:
        view.on_update(1 / 60)
        if draw_every and i % draw_every == 0:
            view.on_draw()
        i += 1
        if view.ctl.finished and view.ctl.shown == view.game.cursor and not view.table.busy:
            return i
        if view.ctl.can_act():
            return i
        pending = view.ctl.ai.pending
        if pending is not None and not pending[0].done():
            time.sleep(0.001)
        else:
            frames += 1
        if time.monotonic() > t_end:
            break
    raise AssertionError(f"the table did not settle in {limit} frames / {timeout:.0f} s (scene {view.ctl.scene!r})")


def card_point(view, card: int) -> tuple[float, float]:
    """Window coordinates of a visible point of ``card`` in South's hand (its left strip)."""
    for s in view.table.sprites:
        if s.key == ("card", card):
            p = s.place
            w, h = s.width, s.height
            return p.x - w / 2 + 10, p.y + h / 2 - 20
    raise AssertionError(f"card {card} is not on the table")


def click(view, x: float, y: float) -> None:
    view.on_mouse_press(x, y, arcade.MOUSE_BUTTON_LEFT, 0)


def play_human_turn(view) -> None:
    """South acts by clicking: the first legal card, or a legal discard's cards then the button."""
    state = view.game.state
    legal = view.game.legal()
    if state.phase == PLAY:
        click(view, *card_point(view, legal[0].card))
    elif state.phase == DISCARD:
        for c in legal[0].cards:
            click(view, *card_point(view, c))
            frames(view, 12)
        view.on_draw()
        x, y = view.toolbar.btn_confirm.rect[:2]
        click(view, x, y)


def damaged_vs_whole(window, view) -> tuple[int, list | None, tuple | None]:
    """Draw the next frame as the game does (only its damaged rectangles, over the
    picture kept from the last frame), then draw the same frame whole.

    Returns how many pixels differ, the rectangles redrawn (None: the frame was
    drawn whole anyway; []: nothing changed) and the bounding box of the
    differences (image coordinates, top-left origin) or None.
    """
    from PIL import Image, ImageChops

    view.on_draw()
    size = window.ctx.screen.size
    part = window.ctx.screen.read(components=3)
    rects = view.last_damage
    view._damage.invalidate()
    view.on_draw()
    whole = window.ctx.screen.read(components=3)
    if part == whole:
        return 0, rects, None
    diff = ImageChops.difference(Image.frombytes("RGB", size, part), Image.frombytes("RGB", size, whole))
    count = sum(1 for px in diff.getdata() if px != (0, 0, 0))
    box = diff.transpose(Image.Transpose.FLIP_TOP_BOTTOM).getbbox()
    return count, rects, box
