"""Practice undo and redo at the table (no arcade).

In a practice game the viewer may take back their own decisions: undo goes back
to the viewer's previous decision (the other seats' moves since then undone
with it), redo plays forward again what was undone.  The session keeps the
game's log and says what can be undone (:class:`~game.table.table_session.TableSession`);
the table is laid out again at once, nothing animated.  Where there is nothing
to undo or redo, the table says so and leaves the prompt as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from game.common.words import MsgKey, msg
from game.table.table_api import Table


class Rewind:
    """Undo and redo for one table's viewer (see the module)."""

    def __init__(self, ctl: Table) -> None:
        self.ctl = ctl

    @property
    def can_undo(self) -> bool:
        """Practice: there is a decision of the viewer's to go back to."""
        ctl = self.ctl
        return ctl.practice and not ctl.finished and ctl.session.undo_target() is not None

    @property
    def can_redo(self) -> bool:
        """Practice: something undone can be played again."""
        ctl = self.ctl
        return ctl.practice and not ctl.finished and ctl.session.redo_target() is not None

    def undo(self) -> bool:
        """Back to the viewer's previous decision; says so when there is none."""
        return self._go(self.can_undo, self.ctl.session.undo, "nothing_to_undo")

    def redo(self) -> bool:
        """Forward again over what was undone; says so when nothing was."""
        return self._go(self.can_redo, self.ctl.session.redo, "nothing_to_redo")

    def _go(self, can: bool, move: Callable[[], bool], nothing: MsgKey) -> bool:
        ctl = self.ctl
        if not ctl.practice:
            return False
        if can and move():
            ctl.resync()
            return True
        ctl.announce(msg(nothing), 1.4)  # said in the banner, the prompt left as it was
        ctl.out.play_sound("click")
        return False


__all__ = ["Rewind"]
