"""What a seat at a server's table hears besides events, said at the table (no arcade).

The session's :class:`~game.table.table_session.Notice` objects: a snapshot (the
table is laid out at once), a refusal of the viewer's last command (the prompt
comes back under the reason), a person gone or back, the link to the server
lost or back (or closed for good: the seat was opened in another window), an AI
taking a seat over, and which seats the AI plays for their person (``ai_for``: the
plates say "AI for Anna" until the person is back).  :class:`Notices` also keeps which
seats' people are away, so that the table says "reconnecting" for them.
"""

from __future__ import annotations

from game.common.words import msg
from game.table.table_api import Table
from game.table.table_session import Notice


class Notices:
    """The table's ear for its session's notices (see the module)."""

    def __init__(self, ctl: Table) -> None:
        self.ctl = ctl
        self.away: set[int] = set()  # seats whose person lost the connection
        #: seats the AI plays for their person (away for too long): their plates say so
        self.ai_for: frozenset[int] = frozenset()
        #: this seat was opened in another window (with its token): the table stops
        #: where it is, saying so, and does not reconnect
        self.elsewhere = False

    def hear(self, notice: Notice) -> None:
        ctl = self.ctl
        kind = notice.kind
        if kind == "resync":  # a snapshot: the table laid out at once
            ctl.resync()
        elif kind in ("refused", "error"):
            ctl.refused(notice.refusal, notice.text)
        elif kind == "presence" and notice.seat >= 0 and notice.seat not in ctl.human_seats:
            if notice.connected:
                self.away.discard(notice.seat)
                ctl.announce(msg("seat_back", seat=notice.seat), 1.6)
            else:
                self.away.add(notice.seat)
                ctl.announce(msg("reconnecting", seat=notice.seat), 2.0)
        elif kind == "connection":
            self._connection(notice.connected, notice.text)
        elif kind == "stand_ins":
            self.ai_for = frozenset(int(s) for s in notice.data.get("seats", ()))
        elif kind in ("takeover", "timeout") and notice.seat >= 0:
            self.away.discard(notice.seat)
            ctl.announce(msg(kind, seat=notice.seat), 2.0)

    def _connection(self, connected: bool, reason: str) -> None:
        """The link to the server went (for good where the seat was opened in another
        window, or where the client gave up: the server is gone), or came back
        (then the prompt is asked again)."""
        ctl = self.ctl
        if not connected and reason in ("opened_elsewhere", "unreachable", "other_program"):
            self.elsewhere = True
            ctl.clear_prompt()
            ctl.say(msg("opened_elsewhere") if reason == "opened_elsewhere"
                    else msg("server_gone", why=reason), "error")
            return
        if not connected:
            ctl.say(msg("connection_lost"), "error")
            return
        ctl.announce(msg("connection_back"), 1.4)
        if ctl.status is not None and ctl.status.key == "connection_lost":
            ctl.say(None)
        ctl.prompt_for = -1  # ask again where the game now stands

    def waiting_for(self, seat: int) -> None:
        """Another seat plays at the server's table: say so ("thinking", or
        "reconnecting" for a person away), unless the link itself is lost."""
        ctl = self.ctl
        want = msg("reconnecting" if seat in self.away else "thinking", seat=seat)
        if ctl.status != want and not (ctl.status and ctl.status.key == "connection_lost"):
            ctl.say(want)


__all__ = ["Notices"]
