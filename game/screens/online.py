"""Play online: host a table or join one by its code, then the lobby (the logic
is :mod:`game.screens.online_lobby`; these views only draw and take clicks and keys)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Literal

import arcade

from engine.ruleset import Ruleset, ruleset, variant_names
from game.common.constants import FONT, GOLD, HEIGHT, INK, RED, WIDTH
from game.common.i18n import _
from game.common.navigation import show
from game.common.settings import MAX_NAME, Settings, clean_name, levels
from game.common.ui import BaseView, Button, typed_line_key
from game.common.words import Words, server_gone
from game.screens import online_lobby

#: what the keys type into: nothing, a table's code, or the server's address
Typing = Literal["", "code", "server", "name"]
CODE_CHARS = 6
ROW_W, ROW_H, ROW_GAP = 720, 44, 6


def _row(i: float, top: float, action: Callable[[], object], w: float = ROW_W) -> Button:
    return Button("", (WIDTH / 2, top - i * (ROW_H + ROW_GAP), w, ROW_H), action, font_size=15)


def _who(kind: str, level: str | None) -> str:
    return _("a friend") if kind == online_lobby.FRIEND else _("AI: {level}").format(level=_(level or ""))


class OnlineView(BaseView):
    """Host a table (the game, its length, who sits where) or join by a code."""

    background = (16, 58, 36)

    def __init__(self, window: arcade.Window) -> None:
        super().__init__(window)
        self.settings: Settings = window.settings
        self.levels = levels()
        self.others: dict[str, list[str]] = {}
        self.typing: Typing = ""
        self.typed = ""
        self.code = ""
        #: what asking the player's name (the first time) goes on to: "host" or "join"
        self.after_name: Literal["", "host", "join"] = ""
        self.title = arcade.Text(_("Play online"), WIDTH / 2, HEIGHT - 80, GOLD, 34, anchor_x="center",
                                 anchor_y="center", font_name=FONT, bold=True)
        self.help = arcade.Text("", WIDTH / 2, HEIGHT - 124, INK, 14, anchor_x="center",
                                anchor_y="center", font_name=FONT)
        self._build()

    # --- what is chosen ----------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        v = getattr(self.settings, "variant", "piedicavallo")
        return ruleset(v if v in variant_names() else "piedicavallo")

    def seats(self) -> list[str]:
        """The other seats (East... round the table): a friend or an AI level."""
        n = self.rules.n_seats - 1
        got = self.others.setdefault(self.rules.name, [online_lobby.FRIEND] + ["medium"] * (n - 1))
        return got

    def _build(self) -> None:
        rules = self.rules
        words = Words(rules, 0)
        top = HEIGHT - 180
        rows: list[Button] = [
            _row(0, top, self.cycle_game),
            _row(1, top, self.toggle_length),
        ]
        self.seat_rows: list[Button] = []
        for k in range(1, rules.n_seats):
            b = _row(1 + k, top, partial(self.cycle_seat, k))
            self.seat_rows.append(b)
        rows += self.seat_rows
        i = rules.n_seats + 1
        self.b_host = _row(i, top, self.host, 420)
        self.b_join = _row(i + 1, top, self.toggle_code, 420)
        self.b_server = _row(i + 2, top, self.toggle_server)
        self.b_reach = _row(i + 3, top, self.toggle_reach)
        self.b_back = _row(i + 4, top, self.on_back, 260)
        self.buttons = [*rows, self.b_host, self.b_join, self.b_server, self.b_reach, self.b_back]
        self.rows = rows
        self._words = words
        self._labels()

    def _labels(self) -> None:
        s = self.settings
        words = self._words
        self.rows[0].label = _("Game: {name}").format(name=words.game_title())
        kind = words.game_kind(self.rules.full_game if s.match else 1)
        self.rows[1].label = _("Length: {kind}").format(kind=kind)
        for k, b in enumerate(self.seat_rows, start=1):
            who = self.seats()[k - 1]
            b.label = _("{seat}: {who}").format(seat=words.name(k),
                                               who=_who(who, None if who == online_lobby.FRIEND else who))
        self.b_host.label = _("Host a table")
        if self.typing == "code":
            self.b_join.label = _("Code: {typed}_ (Enter to join)").format(typed=self.typed)
        else:
            self.b_join.label = _("Join a table with its code")
        if self.typing == "server":
            self.b_server.label = _("Server: {typed}_ (Enter to keep)").format(typed=self.typed)
        elif s.online_server:
            self.b_server.label = _("Server: {address}").format(address=s.online_server)
        else:
            self.b_server.label = _("Server: this computer")
        if s.online_server:
            self.b_reach.label = _("Who can join: whoever reaches that server")
        elif s.online_lan:
            self.b_reach.label = _("Who can join: this computer and the home network")
        else:
            self.b_reach.label = _("Who can join: this computer only")
        self.b_reach.enabled = not s.online_server
        self.b_back.label = _("Back")
        if self.typing == "name":
            self.help.text = _("Your name at the table: {typed}_ (Enter to go on)").format(typed=self.typed)
            self.help.color = GOLD
        else:
            self.help.text = _("You sit South. Share the table's code with your friends.")
            self.help.color = INK

    # --- actions ----------------------------------------------------------------------

    def cycle_game(self) -> None:
        names = variant_names()
        self.settings.variant = names[(names.index(self.rules.name) + 1) % len(names)]
        self.settings.save()
        self._build()

    def toggle_length(self) -> None:
        self.settings.match = not self.settings.match
        self.settings.save()
        self._labels()

    def cycle_seat(self, k: int) -> None:
        order = [online_lobby.FRIEND, *self.levels]
        seats = self.seats()
        cur = seats[k - 1]
        seats[k - 1] = order[(order.index(cur) + 1) % len(order)] if cur in order else order[0]
        self._labels()

    def toggle_code(self) -> None:
        if self.typing == "code":
            self._join()
            return
        self.typing, self.typed = "code", ""
        self._labels()

    def toggle_server(self) -> None:
        if self.typing == "server":
            self._keep_server()
            return
        self.typing, self.typed = "server", self.settings.online_server
        self._labels()

    def toggle_reach(self) -> None:
        """The game's own server: for this computer only, or the home network too."""
        if self.settings.online_server:
            return
        self.settings.online_lan = not self.settings.online_lan
        self.settings.save()
        self._labels()

    def _named(self, then: Literal["host", "join"]) -> bool:
        """Whether the player has a name; if not, ask for it first, then go on to
        ``then`` ("host" or "join")."""
        if self.settings.player_name:
            return True
        self.typing, self.typed, self.after_name = "name", "", then
        self._labels()
        return False

    def _keep_name(self) -> None:
        name = clean_name(self.typed)
        if not name:
            return
        self.settings.player_name = name
        self.settings.save()
        self.typing, self.typed = "", self.code
        then, self.after_name = self.after_name, ""
        self._labels()
        if then == "host":
            self.host()
        elif then == "join":
            self._join()

    def _keep_server(self) -> None:
        self.settings.online_server = self.typed.strip()[:200]
        self.settings.save()
        self.typing = ""
        self._labels()

    def _fail(self, exc: Exception) -> None:
        show(self.window, "message", text=str(exc), title=_("Play online"),
             back=lambda: self.window.show_view(OnlineView(self.window)))

    def host(self) -> None:
        if not self._named("host"):
            return
        rules = self.rules
        deals = rules.full_game if self.settings.match else 1
        try:
            lobby = online_lobby.host(self.settings.online_server, rules.name, deals, self.seats(),
                                      name=self.settings.player_name, lan=self.settings.online_lan)
        except online_lobby.OnlineError as exc:
            self._fail(exc)
            return
        self.window.show_view(LobbyView(self.window, lobby))

    def _join(self) -> None:
        code = self.typed.strip().upper()
        self.typing = ""
        if len(code) != CODE_CHARS:
            self._labels()
            return
        self.code = code
        if not self._named("join"):
            return
        try:
            lobby = online_lobby.join(self.settings.online_server, code, name=self.settings.player_name)
        except online_lobby.OnlineError as exc:
            self._fail(exc)
            return
        self.window.show_view(LobbyView(self.window, lobby))

    # --- keys ----------------------------------------------------------------------------

    def on_text(self, text: str) -> None:
        if self.typing == "code":
            ok = "".join(ch for ch in text.upper() if ch.isalnum())
            self.typed = (self.typed + ok)[:CODE_CHARS]
            self._labels()
        elif self.typing == "server":
            ok = "".join(ch for ch in text if ch.isprintable() and not ch.isspace())
            self.typed = (self.typed + ok)[:200]
            self._labels()
        elif self.typing == "name":
            ok = "".join(ch for ch in text if ch.isprintable())
            self.typed = (self.typed + ok)[:MAX_NAME]
            self._labels()

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if self.typing:
            action, self.typed = typed_line_key(symbol, self.typed)
            if action == "enter":
                {"code": self._join, "server": self._keep_server, "name": self._keep_name}[self.typing]()
            elif action == "cancel":
                self.typing = ""
                self._labels()
            elif action == "edit":
                self._labels()
            return True
        return super().on_key_press(symbol, modifiers)

    def draw_scene(self) -> None:
        self.title.draw()
        self.help.draw()

    def on_back(self) -> None:
        show(self.window, "menu")


def server_lines(lobby: online_lobby.Lobby) -> tuple[str, str]:
    """Where the table is held, and (on the home network) the address friends in
    the house put in Play online > Server ("" otherwise)."""
    own = lobby.own
    if own is None:
        return _("Server: {address}").format(address=lobby.url), ""
    if own.port != own.wanted and own.wanted:
        where = _("port {port}: port {wanted} is taken by another program").format(
            port=own.port, wanted=own.wanted)
    else:
        where = _("port {port}").format(port=own.port)
    if not own.lan:
        return _("Server: this computer only, {where}").format(where=where), ""
    return (_("Server: this computer and the home network, {where}").format(where=where),
            _("Friends in the house: Play online > Server: {address}").format(
                address=own.friends_address()))


class LobbyView(BaseView):
    """The seats filling: the code to share, who sits where, and (the host) start."""

    background = (16, 58, 36)

    def __init__(self, window: arcade.Window, lobby: online_lobby.Lobby) -> None:
        super().__init__(window)
        self.lobby = lobby
        self.levels = levels()
        rules = lobby.rules
        self.words = Words(rules, lobby.seat)
        self.title = arcade.Text(_("Table {code}").format(code=lobby.code), WIDTH / 2, HEIGHT - 80,
                                 GOLD, 40, anchor_x="center", anchor_y="center", font_name=FONT,
                                 bold=True)
        self.help = arcade.Text("", WIDTH / 2, HEIGHT - 122, INK, 15, anchor_x="center",
                                anchor_y="center", font_name=FONT)
        lines = server_lines(lobby)
        self.server = arcade.Text(lines[0], WIDTH / 2, HEIGHT - 148, INK, 12, anchor_x="center",
                                  anchor_y="center", font_name=FONT)
        # on the home network: the address friends in the house type in Play online > Server
        self.friends = arcade.Text(lines[1], WIDTH / 2, HEIGHT - 170, GOLD, 13, anchor_x="center",
                                   anchor_y="center", font_name=FONT)
        # friends without the game open the table's link in a browser (online/web)
        self.link = arcade.Text(_("Link for a browser: {link}").format(link=lobby.link), WIDTH / 2,
                                HEIGHT - (192 if lines[1] else 170), GOLD, 13, anchor_x="center",
                                anchor_y="center", font_name=FONT)
        self.status = arcade.Text("", WIDTH / 2, 64, INK, 14, anchor_x="center", anchor_y="center",
                                  font_name=FONT)
        top = HEIGHT - 232
        self.seat_rows = [_row(s, top, partial(self.cycle, s)) for s in range(rules.n_seats)]
        n = rules.n_seats
        self.b_start = _row(n + 0.4, top, self.start, 360)
        self.b_leave = _row(n + 1.4, top, self.leave, 260)
        self.b_copy = _row(n + 2.4, top, self.copy_link, 360)
        self.buttons = [*self.seat_rows, self.b_start, self.b_leave, self.b_copy]
        self._said: tuple[object, ...] = ()
        self._labels()

    def _labels(self) -> None:
        lb = self.lobby
        seats = lb.seats()
        names = Words(lb.rules, None)
        for s, b in enumerate(self.seat_rows):
            seat = seats[s] if s < len(seats) else {"kind": online_lobby.FRIEND}
            if s == lb.seat:
                who = _("you")
            elif seat["kind"] != online_lobby.FRIEND:
                who = _("AI: {level}").format(level=_(seat.get("level") or ""))
            elif seat.get("taken"):
                who = seat.get("name") or _("a friend")
                if seat.get("takeover"):  # away too long: the AI plays for them until they are back
                    who = _("AI for {name}").format(name=who)
                elif not seat.get("connected"):
                    who = _("{name} (away)").format(name=who)
            else:
                who = _("waiting for a friend")
            b.label = _("{seat}: {who}").format(seat=names.name(s), who=who)
            b.enabled = lb.is_host and not seat.get("taken") and s != lb.seat
        if lb.is_host:
            self.help.text = _("Share this code. Click an empty seat to give it to the AI.")
            self.b_start.label = _("Start the game") if lb.can_start else _("Waiting for friends…")
            self.b_start.enabled = lb.can_start
        else:
            self.help.text = _("Waiting for the host to start the game.")
            self.b_start.label = _("Waiting for the host…")
            self.b_start.enabled = False
        self.b_leave.label = _("Leave")
        self.b_copy.label = _("Copy the link")
        if lb.error == "opened_elsewhere":
            self.status.text = _("Opened elsewhere: this seat is now played from another window")
        elif lb.gone:
            self.status.text = server_gone(lb.error)
            self.status.color = RED
        else:
            self.status.text = _("Connection lost: reconnecting…") if lb.error else ""

    def on_update(self, delta_time: float) -> None:
        started = self.lobby.poll()
        key = (repr(self.lobby.info.get("seats")), self.lobby.error, started)
        if key != self._said:
            self._said = key
            self._labels()
        if started:
            self._to_table()

    def _to_table(self) -> None:
        window = self.window
        show(window, "table", game=self.lobby.session(), players={}, settings=window.settings,
             sound=getattr(window, "sound", None), on_exit=lambda: show(window, "menu"))

    def cycle(self, seat: int) -> None:
        try:
            self.lobby.cycle_seat(seat, self.levels)
        except online_lobby.OnlineError as exc:
            self.status.text = str(exc)
            self.status.color = RED
            return
        self._labels()

    def start(self) -> None:
        if not self.lobby.can_start:
            return
        try:
            self.lobby.start()
        except online_lobby.OnlineError as exc:
            self.status.text = str(exc)
            self.status.color = RED

    def copy_link(self) -> None:
        """The table's link to the clipboard (the window's own: pyglet's)."""
        try:
            self.window.set_clipboard_text(self.lobby.link)
        except Exception:  # noqa: BLE001 - no clipboard here (a bare X server, a headless run)
            self.status.text = _("No clipboard here: the link is above, to type")
            self.status.color = RED
            return
        self.status.text = _("Copied")
        self.status.color = INK

    def leave(self) -> None:
        self.lobby.leave()
        show(self.window, "menu")

    def draw_scene(self) -> None:
        self.title.draw()
        self.help.draw()
        self.server.draw()
        if self.friends.text:
            self.friends.draw()
        self.link.draw()
        if self.status.text:
            self.status.draw()

    def on_back(self) -> None:
        self.leave()


__all__ = ["OnlineView", "LobbyView"]
