"""The play table's controller without a window: whole deals of both games driven
through it as a player would (clicks on cards, the discard confirmed), what it
shows checked against the engine, refusals as data, undo and redo, and the
wording of its messages in three languages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import TRUMP_SUIT, mask_cards
from engine.players import make_player
from engine.replay import read_replay
from engine.ruleset import ruleset
from engine.scoring import state_breakdown
from engine.state import DISCARD, PLAY, Dealt, first_dealer
from game.common import i18n, paths
from game.common.position import Position, seen_by
from game.common.words import Words, msg
from game.table import session
from game.table.table_api import Step
from game.table.table_controller import InlineExecutor, TableController

ROOT = Path(__file__).resolve().parent.parent


class Recorder:
    """The view's side of the controller, recorded: never busy, nothing drawn."""

    busy = False

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.laid: list[tuple[Position, frozenset, frozenset, bool]] = []
        self.hints: list[dict] = []
        self.sounds: list[str] = []

    def show(self, step: Step) -> None:
        self.steps.append(step)

    def lay(self, pos, raised, dimmed, ease) -> None:
        self.laid.append((pos, raised, dimmed, ease))

    def show_hints(self, hints) -> None:
        self.hints.append(hints)

    def play_sound(self, name: str) -> None:
        self.sounds.append(name)


def seed_where(variant: str, dealer: int) -> int:
    rules = ruleset(variant)
    return next(s for s in range(1, 500) if first_dealer(s, rules) == dealer)


def make(variant: str, seed: int, *, practice: bool = False, match: bool = False):
    game = session.new_game(partner="random", opponents="random", match=match, practice=practice,
                            seed=seed, variant=variant)
    out = Recorder()
    scenes: list[str] = []
    ctl = TableController(game, {s: make_player("random") for s in (1, 2, 3)[: game.rules.n_seats - 1]},
                          out, practice=practice, executor=InlineExecutor(), on_scene=scenes.append)
    ctl.speed = 1000.0  # no AI "thinking" pause
    return ctl, out, scenes


def run_until_prompt(ctl: TableController, limit: int = 5000) -> None:
    for _ in range(limit):
        if ctl.can_act() or ctl.waiting == "scoring" or ctl.finished and ctl.shown == ctl.game.cursor:
            return
        ctl.update(1 / 60)
    raise AssertionError(f"no prompt after {limit} updates (scene {ctl.scene!r})")


def act(ctl: TableController) -> None:
    """The human's turn, by clicks: the first legal card, or a legal discard confirmed."""
    view = ctl.view()
    if view.phase == PLAY:
        assert ctl.click_card(view.legal()[0].card)
    else:
        for c in view.legal()[0].cards:
            assert ctl.click_card(c)
        assert ctl.discard.ready
        ctl.discard.confirm()


def play_deal(ctl: TableController) -> None:
    while True:
        run_until_prompt(ctl)
        if ctl.waiting == "scoring":
            return
        before = ctl.game.cursor
        act(ctl)
        assert ctl.game.cursor > before, ctl.status


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_a_whole_deal_through_the_controller(variant: str, home) -> None:
    ctl, out, scenes = make(variant, seed_where(variant, 0))  # South deals: the discard too
    rules = ctl.rules
    play_deal(ctl)
    st = ctl.game.state
    assert len(st.scores) == 1 and sum(st.scores[0]) == rules.total
    discard_scene = "exchange" if variant == "scarto" else "discard"
    assert scenes == ["deal", discard_scene, "play", "scoring"]
    # every event was shown, each as the viewer's seat sees it
    assert ctl.shown == ctl.game.cursor
    shown = [s for s in out.steps if s.kind in ("event", "deal")]
    assert len(shown) == len(ctl.game.events)
    for step in out.steps:
        for pos in (step.before, step.after):
            assert all(pos.hands[s] is None for s in range(1, rules.n_seats))  # no other hand, ever
    if variant == "scarto":
        deal, take = out.steps[0], out.steps[1]
        assert (deal.kind, take.kind) == ("deal", "take")
        assert deal.after.stock_out and deal.after.stock and deal.after.hand_sizes[0] == 25
        assert not take.after.stock_out and take.after.hand_sizes[0] == 28
        assert take.after.hand(0) & take.before.stock == take.before.stock  # the stock joined the hand
    # the sheet: the engine's breakdown and result
    sheet = ctl.end.sheet
    assert sheet is not None and sheet.points == st.scores[0]
    parts = state_breakdown(ctl.game.states[ctl.game.cursor - 1])
    assert tuple(p.total for p in parts) == sheet.points
    assert sheet.outcome == rules.deal_outcome(sheet.points)
    assert sheet.rows[-1].values == tuple(p.deal_score if rules.par else p.total for p in parts)
    # the finished game was archived as a valid replay and the autosave dropped
    assert ctl.finished and ctl.replay_path is not None
    rp = read_replay(ctl.replay_path)
    assert rp.final.scores == st.scores and rp.header.variant == variant
    assert not paths.autosave_path().exists()
    ctl.continue_()
    assert ctl.end.sheet is None and ctl.waiting == ""


def test_a_scarto_deal_another_seat_deals_keeps_stock_and_discard_hidden(home) -> None:
    ctl, out, scenes = make("scarto", seed_where("scarto", 1))
    play_deal(ctl)
    for step in out.steps:
        for pos in (step.before, step.after):
            assert pos.stock == 0 and pos.discard is None  # East's: nobody else sees them (S4)
    take = next(s for s in out.steps if s.kind == "take")
    assert take.before.stock_out and take.before.hand_sizes[1] == 25 and take.after.hand_sizes[1] == 28
    discarded = next(s for s in out.steps if s.kind == "event" and type(s.event).__name__ == "Discarded")
    assert discarded.event.cards == 0  # the event as South sees it
    assert ctl.end.sheet is not None
    dealer_groups = ctl.end.sheet.groups[1]
    assert any(g.kind == "discard" and g.cards == () for g in dealer_groups)


def test_a_whole_scarto_game_of_three_deals_and_who_loses(home) -> None:
    ctl, out, scenes = make("scarto", 5, match=True)
    for _deal in range(3):
        play_deal(ctl)
        sheet = ctl.end.sheet
        assert sheet is not None and sheet.n_deals == 3
        ctl.continue_()
    st = ctl.game.state
    assert len(st.scores) == 3 and ctl.finished
    assert sheet.history == tuple(ctl.rules.deal_scores(p) for p in st.scores)
    assert sheet.totals == ctl.rules.totals(st.scores) and sum(sheet.totals) == 0
    assert sheet.game_outcome == ctl.rules.game_outcome(st.scores)
    # each player dealt once, the deal passing to the next seat (S6)
    dealers = [e.dealer for e in ctl.game.events if isinstance(e, Dealt)]
    assert sorted(dealers) == [0, 1, 2] and dealers[1] == (dealers[0] + 1) % 3
    words = Words(ctl.rules, 0)
    text = words.outcome(sheet.game_outcome, sheet.totals, True)
    if sheet.game_outcome.draw:
        assert "drawn" in text
    else:
        assert "lose" in text


def test_scarto_refusals_are_in_words_with_the_rule_apart(home) -> None:
    ctl, out, scenes = make("scarto", seed_where("scarto", 0))
    run_until_prompt(ctl)
    view = ctl.view()
    assert view.phase == DISCARD and view.hand.bit_count() == 28
    pack = ctl.rules.pack
    words = Words(ctl.rules, 0)
    kings = [c for c in mask_cards(view.hand) if pack.codes[c].endswith("K")]
    assert kings, "a 28-card hand without a King: pick another seed"
    cursor = ctl.game.cursor
    assert not ctl.click_card(kings[0])
    assert ctl.game.cursor == cursor and ctl.tone == "error"
    r = ctl.status.get("refusal")
    assert (r.rule, r.reason, r.cards) == ("S4", "never_discard", (kings[0],))
    text = words.say(ctl.status)
    # in words, the rule id only for the tooltip
    assert "may not be laid aside" in text and "King of" in text and "S4" not in text
    assert words.refusal_rule(r) == "Rule S4 (see Rules)"
    # the dimmed cards are exactly those no legal discard holds
    _pos, raised, dimmed, _ease = out.laid[-1]
    legal_cards = {c for cmd in view.legal() for c in cmd.cards} if len(view.legal()) < 5000 else set()
    assert kings[0] in dimmed and not raised
    assert legal_cards.isdisjoint(dimmed)


def test_piedicavallo_refusal_is_data_worded_in_each_language(home) -> None:
    ctl, out, scenes = make("piedicavallo", 5)
    for _ in range(40):
        run_until_prompt(ctl)
        view = ctl.view()
        if view.phase == PLAY:
            bad = [c for c in mask_cards(view.hand) if not view.legal_mask() >> c & 1]
            if bad:
                break
        act(ctl)
    else:
        raise AssertionError("no illegal card came up")
    assert not ctl.click_card(bad[0])
    r = ctl.status.get("refusal")
    assert r.rule == "R7" and r.reason in ("must_follow", "must_trump") and r.suit >= 0
    texts = {}
    for lang in ("en", "fr", "it"):
        i18n.set_language(lang)
        texts[lang] = Words(ctl.rules, 0).say(ctl.status)
    i18n.set_language("en")
    assert not any("R7" in t for t in texts.values())  # in words; the rule id in a tooltip
    assert texts["en"] != texts["fr"] != texts["it"]
    if r.reason == "must_trump" or r.suit == TRUMP_SUIT:
        assert "must play a trump" in texts["en"]
    else:
        assert "you must follow" in texts["en"]


def test_undo_and_redo_in_practice(home) -> None:
    ctl, out, scenes = make("scarto", seed_where("scarto", 2), practice=True)
    decisions = []
    for _ in range(4):
        run_until_prompt(ctl)
        decisions.append((ctl.game.cursor, ctl.game.state))
        act(ctl)
    run_until_prompt(ctl)
    assert ctl.rewind.undo() and ctl.rewind.undo()
    assert (ctl.game.cursor, ctl.game.state) == decisions[2]
    pos, raised, dimmed, ease = out.laid[-1]
    assert pos == seen_by(ctl.game.state, {0}) and not ease  # laid at once, no animation
    assert ctl.rewind.redo()
    assert (ctl.game.cursor, ctl.game.state) == decisions[3]
    run_until_prompt(ctl)
    assert ctl.can_act()


def test_the_controller_imports_no_arcade() -> None:
    code = (
        "import sys, game.table.table_controller, game.common.words, game.common.position, game.table.score_sheet, "
        "game.common.layout, game.table.live_game\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# --- wording --------------------------------------------------------------------------


def test_messages_about_you_are_worded_apart_from_those_about_another_seat() -> None:
    rules = ruleset("piedicavallo")
    w = Words(rules, 0)
    cases = {
        "en": ("You take the trick", "East takes the trick", "You deal; East cuts"[:8]),
        "fr": ("Vous remportez le pli", "Est remporte le pli", "Vous donnez"),
        "it": ("Prendi tu la presa", "Est prende la presa", "Fai tu le carte"),
    }
    try:
        for lang, (you, east, deal) in cases.items():
            i18n.set_language(lang)
            assert w.say(msg("trick", seat=0)) == you
            assert w.say(msg("trick", seat=1)) == east
            assert w.say(msg("deal", dealer=0, cutter=3)).startswith(deal)
            assert w.say(msg("deal", dealer=1, cutter=0)).endswith(
                {"en": "you cut", "fr": "vous coupez", "it": "tagli tu"}[lang])
            assert "You" not in w.say(msg("discarded", seat=0, n=2, trumps=1)).replace("Your", "")
    finally:
        i18n.set_language("en")


def test_counts_use_plural_forms() -> None:
    w = Words(ruleset("scarto"), 0)
    try:
        assert w.cards_held(1) == "1 card" and w.cards_held(25) == "25 cards"
        assert w.pile_line(0, 3, 1).endswith("1 trick")
        i18n.set_language("fr")
        assert w.cards_held(0) == "0 carte" and w.cards_held(1) == "1 carte" and w.cards_held(2) == "2 cartes"
        assert w.pile_line(1, 0, 0).endswith("0 pli")
        i18n.set_language("it")
        assert w.cards_held(0) == "0 carte" and w.cards_held(1) == "1 carta"
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_the_discard_by_keyboard_alone(variant: str, home) -> None:
    """Right and Enter pick cards; once the discard is whole, Enter lays it aside."""
    ctl, _out, _scenes = make(variant, seed_where(variant, 0))
    run_until_prompt(ctl)
    assert ctl.view().phase == DISCARD
    before = ctl.game.cursor
    for _ in range(200):
        if ctl.discard.ready:
            break
        ctl.keys.step(1)
        ctl.key_press()
    assert ctl.discard.ready and len(ctl.discard.selected) == ctl.rules.discard_cards
    chosen = set(ctl.discard.selected)
    assert ctl.key_press()
    assert ctl.game.cursor > before and ctl.view().phase == PLAY
    assert ctl.game.state.discard == sum(1 << c for c in chosen)


def test_a_full_disk_stops_the_table_and_keeps_the_position(home, monkeypatch) -> None:
    """A move that cannot be saved is not made; the table says so in one
    line, waits, and plays on once the player tries again (Enter or a click);
    the same for an AI's move; the autosave stays a valid game throughout."""
    import errno
    import os

    import engine.replay as replay_mod
    from engine.replay import read_replay

    real = os.pwrite
    full = {"on": False}

    def pwrite(fd, data, at):
        if full["on"]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data, at)

    monkeypatch.setattr(replay_mod.os, "pwrite", pwrite)
    ctl, _out, _scenes = make("piedicavallo", seed_where("piedicavallo", 1))  # East deals
    run_until_prompt(ctl)
    assert ctl.view().phase == PLAY
    path = ctl.game.autosave_path
    before, state = ctl.game.cursor, ctl.game.state
    full["on"] = True
    card = ctl.view().legal()[0].card
    assert not ctl.click_card(card) or ctl.game.cursor == before
    assert ctl.game.cursor == before and ctl.game.state == state
    assert ctl.save_error and "disk is full" in ctl.save_error and "\n" not in ctl.save_error
    assert ctl.status.key == "save_failed" and ctl.tone == "error"
    assert not ctl.can_act()
    for _ in range(20):
        ctl.update(1 / 60)
    assert ctl.game.cursor == before  # stopped, not retrying by itself
    assert read_replay(path, tolerate_torn=False).events == ctl.game.log
    full["on"] = False
    assert ctl.key_press()  # Enter: try again
    run_until_prompt(ctl)
    act(ctl)
    assert ctl.game.cursor > before
    # an AI's move that cannot be saved stops the table the same way
    full["on"] = True
    for _ in range(200):
        ctl.update(1 / 60)
        if ctl.save_error:
            break
    assert ctl.save_error and ctl.game.state.turn != 0
    stuck = ctl.game.cursor
    full["on"] = False
    assert ctl.key_press()
    for _ in range(200):
        ctl.update(1 / 60)
    assert ctl.game.cursor > stuck and not ctl.save_error


# --- a table a newcomer can read -----------------------------------


def _paced(variant: str, settings) -> tuple[TableController, Recorder]:
    game = session.new_game(partner="random", opponents="random", match=False, practice=False,
                            seed=seed_where(variant, 1), variant=variant)
    out = Recorder()
    ctl = TableController(game, {s: make_player("random") for s in (1, 2, 3)[: game.rules.n_seats - 1]},
                          out, settings=settings, executor=InlineExecutor())
    return ctl, out


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_a_new_players_table_shows_every_card_of_every_trick_until_a_click(variant: str, home) -> None:
    from engine.state import CardPlayed, TrickTaken
    from game.common.settings import Settings

    s = Settings()  # a new player's settings, speed 1
    assert s.auto_advance is False and s.speed == 1.0
    ctl, out = _paced(variant, s)
    n = ctl.rules.n_seats
    shown_at: list[tuple[float, int]] = []  # (clock, seat) of each AI card put on the table
    tricks = waits = 0
    for _ in range(200_000):
        if ctl.waiting == "scoring":
            break
        before = len(out.steps)
        if ctl.waiting == "trick":
            waits += 1
            # the whole trick is on the table, its winner named, for as long as nobody clicks
            pos = out.steps[-1].after
            assert len(pos.trick) == n and ctl.feed.trick_winner >= 0 and ctl.status.key == "click_to_continue"
            for _ in range(600):  # ten seconds: still there
                ctl.update(1 / 60)
            assert ctl.waiting == "trick" and len(out.steps) == before
            ctl.continue_()
            assert isinstance(out.steps[-1].event, TrickTaken)
            tricks += 1
            continue
        if ctl.can_act():
            act(ctl)
        ctl.update(1 / 60)
        for step in out.steps[before:]:
            if isinstance(step.event, CardPlayed) and step.event.seat != 0:
                shown_at.append((ctl.clock, step.event.seat))
    assert tricks == waits == sum(isinstance(e, TrickTaken) for e in ctl.game.events) >= 15  # every trick
    # AI cards one after another arrive at least T_AI_READ apart (a second at speed 1)
    gaps = [b[0] - a[0] for a, b in zip(shown_at, shown_at[1:], strict=False) if b[1] == (a[1] + 1) % n]
    assert gaps and min(gaps) >= 1.0 - 1e-6


def test_the_quick_table_stays_an_option_and_autoplay_is_not_slowed(home) -> None:
    from game.common.constants import T_AI_MIN, T_AI_READ
    from game.common.settings import Settings

    quick, _out = _paced("piedicavallo", Settings(auto_advance=True, speed=2.0))
    assert quick.ai.pause == pytest.approx(T_AI_MIN / 2)
    slow, _out = _paced("piedicavallo", Settings(speed=2.0))
    assert slow.ai.pause == pytest.approx(T_AI_READ / 2)
    slow.auto_continue = True  # autoplay: nobody reads, nothing waits
    assert slow.ai.pause == pytest.approx(T_AI_MIN / 2)
