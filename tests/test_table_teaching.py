"""The table teaches: the practice hint says why in a sentence drawn
from the viewer's view, and a refused card says what may be played instead,
naming the engine's legal cards and lighting them, in three languages."""

from __future__ import annotations

import pytest

from engine.ai.reasons import reason
from engine.cards import mask_cards
from engine.players import make_player
from engine.state import DISCARD, PLAY
from game.common import i18n
from game.common.words import Words, card_name
from game.table import session
from game.table.table_controller import InlineExecutor, TableController


class Recorder:
    """The view's side of the controller, recorded: never busy, nothing drawn."""

    busy = False

    def __init__(self) -> None:
        self.laid: list[tuple[object, frozenset, frozenset, bool]] = []
        self.hints: list[dict] = []

    def show(self, step) -> None:
        pass

    def lay(self, pos, raised, dimmed, ease) -> None:
        self.laid.append((pos, raised, dimmed, ease))

    def show_hints(self, hints) -> None:
        self.hints.append(hints)

    def play_sound(self, name: str) -> None:
        pass


def make(variant: str, seed: int, hint_fn=None):
    game = session.new_game(partner="random", opponents="random", match=False, practice=True, seed=seed,
                            variant=variant)
    out = Recorder()
    ctl = TableController(game, {s: make_player("random") for s in range(1, game.rules.n_seats)},
                          out, practice=True, executor=InlineExecutor(), hint_fn=hint_fn)
    ctl.speed = 1000.0
    return ctl, out


def until_prompt(ctl: TableController) -> None:
    for _ in range(5000):
        if ctl.can_act() or ctl.finished:
            return
        ctl.update(1 / 60)
    raise AssertionError("no prompt")


def act(ctl: TableController) -> None:
    view = ctl.view()
    if view.phase == PLAY:
        assert ctl.click_card(view.legal()[0].card)
    else:
        for c in view.legal()[0].cards:
            ctl.click_card(c)
        ctl.discard.confirm()


def ranked_last_first(view, ms, cursor):
    """A stand-in hint: every legal move, the last one best."""
    legal = list(view.legal())[::-1]
    return [(cmd, 50.0 - i) for i, cmd in enumerate(legal)]


@pytest.mark.slow
def test_the_hint_gives_the_reason_of_its_best_move_in_each_language(home) -> None:
    for variant in ("piedicavallo", "scarto"):
        ctl, out = make(variant, 7, hint_fn=ranked_last_first)
        got = []
        for _ in range(40):
            until_prompt(ctl)
            if ctl.finished:
                break
            view = ctl.view()
            ctl.hints.ask()
            ctl.update(1 / 60)
            best = ranked_last_first(view, 0, 0)[0][0]
            assert ctl.hints.reason == reason(view, best)  # from the viewer's view, for the best move
            assert ctl.status is not None and ctl.status.key == "hints"
            if ctl.hints.reason is not None:
                texts = {}
                for lang in ("en", "fr", "it"):
                    i18n.set_language(lang)
                    w = Words(ctl.rules, 0)
                    texts[lang] = w.say(ctl.status)
                    assert w.reason(ctl.hints.reason) in texts[lang] and "{" not in texts[lang]
                i18n.set_language("en")
                assert texts["en"].startswith("★ The best: ")
                assert len(set(texts.values())) == 3, texts
                got.append(ctl.hints.reason.key)
            if view.phase == DISCARD:
                for c in best.cards:  # type: ignore[union-attr]
                    ctl.click_card(c)
                ctl.discard.confirm()
            else:
                assert ctl.click_card(best.card)  # type: ignore[union-attr]
        assert len(got) >= 10 and len(set(got)) >= 4, got


@pytest.mark.slow
def test_a_refused_card_says_what_to_play_instead_and_lights_it(home) -> None:
    seen = set()
    for variant, seed in (("piedicavallo", 5), ("scarto", 3), ("piedicavallo", 11)):
        ctl, out = make(variant, seed)
        for _ in range(80):
            until_prompt(ctl)
            if ctl.finished:
                break
            view = ctl.view()
            bad = [c for c in mask_cards(view.hand) if not view.legal_mask() >> c & 1] \
                if view.phase == PLAY else []
            if bad:
                legal = {cmd.card for cmd in view.legal()}  # the engine's legal list
                cursor = ctl.game.cursor
                assert not ctl.click_card(bad[0])
                assert ctl.game.cursor == cursor and ctl.tone == "error"
                r = ctl.status.get("refusal")
                assert set(ctl.status.get("instead")) == legal == set(ctl.refused_instead)
                _pos, raised, dimmed, _ease = out.laid[-1]
                assert raised == legal and bad[0] in dimmed and not legal & dimmed
                w = Words(ctl.rules, 0)
                pack = ctl.rules.pack
                text = w.say(ctl.status)
                if len(legal) <= 3:
                    assert all(card_name(pack, c) in text for c in legal), (text, legal)
                    assert "you hold" in text
                else:
                    assert f"{len(legal)} cards lit up" in text
                if r.reason == "must_follow" and r.suit < 4:
                    assert text.startswith("You must follow ")
                elif r.reason == "must_trump":
                    assert text.startswith("You have no ") and "must play a trump" in text
                for lang in ("fr", "it"):
                    i18n.set_language(lang)
                    other = Words(ctl.rules, 0).say(ctl.status)
                    i18n.set_language("en")
                    assert other != text and "{" not in other
                seen.add((r.reason, len(legal) <= 3))
            act(ctl)
    # both refusals of R7/S5 came up, with the cards named and with them counted
    assert {r for r, _named in seen} == {"must_follow", "must_trump"}, seen
    assert {named for _r, named in seen} == {True, False}, seen
