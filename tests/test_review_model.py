"""The review mode's pure model (game/theatre/review_model.py): which deal, the review of
one deal equal to the file's, stepping from one decision to the next, the curve's
points; and the AI service's long calls (progress, a stop, nothing left behind)."""

from __future__ import annotations

import os
import time
from concurrent.futures import CancelledError
from pathlib import Path

import pytest

from engine.ai import pool
from engine.players import make_player
from engine.replay import read_replay, write_replay
from engine.review import Grader, Review, review_replay
from engine.simulate import play_game
from engine.state import CardPlayed, DealScored, Discarded
from engine.variants import SCARTO
from engine.view import seat_view
from game.table import ai_service
from game.theatre.review_model import (
    LABEL_ORDER,
    ReviewModel,
    deal_span,
    only_deal,
    pick_deal,
    review_deal,
)

#: a light review: a few rounds a decision
QUICK = Grader(rounds=4, discard_rounds=2)

GOLDEN = Path(__file__).parent / "golden"
MATCH = GOLDEN / "match-seed-7.jsonl"
SINGLE = GOLDEN / "single-seed-42.jsonl"


@pytest.fixture(autouse=True, scope="module")
def _serial():
    pool.set_parallel(False)
    yield


def _scarto_dealt_by(seat: int, dest: Path) -> Path:
    for seed in range(1, 60):
        g = play_game(seed, [make_player(x) for x in ("easy", "random", "random")], rules=SCARTO)
        if g.events[0].dealer == seat:  # type: ignore[union-attr]
            write_replay(dest, g.header, g.events)
            return dest
    raise AssertionError("no seed dealt by that seat")


def test_the_deal_reviewed_is_the_one_asked_else_the_last_scored() -> None:
    rp = read_replay(MATCH)
    assert pick_deal(rp) == 4 and pick_deal(rp, 2) == 2
    for bad in (0, 5):
        with pytest.raises(ValueError):
            pick_deal(rp, bad)
    spans = [deal_span(rp, d) for d in (1, 2, 3, 4)]
    assert spans[0][0] == 1 and spans[-1][1] == len(rp.events)
    assert all(a[1] + 1 == b[0] for a, b in zip(spans, spans[1:], strict=False))  # back to back
    # an unfinished file: its last deal
    cut = next(i for i, e in enumerate(rp.events) if isinstance(e, DealScored)) + 5
    short = type(rp)(rp.header, rp.events[:cut], rp.states[:cut + 1])
    assert pick_deal(short) == 1
    short2 = type(rp)(rp.header, rp.events[:cut + 40], rp.states[:cut + 41])
    assert pick_deal(short2) == 1  # deal 2 has begun, deal 1 is the last scored


def test_one_deals_review_is_the_files_review_of_that_deal() -> None:
    rp = read_replay(MATCH)
    whole = review_replay(rp, 0, file=str(MATCH), budget=QUICK, parallel=False)
    for deal in (2, 4):
        one = review_deal(MATCH, 0, deal, budget=QUICK, parallel=False)
        assert one.decisions == [d for d in whole.decisions if d.deal == deal]
        assert only_deal(rp, deal).events.count(None) == len(rp.events) - (
            deal_span(rp, deal)[1] - deal_span(rp, deal)[0] + 1)


def test_steps_are_the_decisions_with_a_choice_known_before_the_review() -> None:
    rp = read_replay(SINGLE)
    m = ReviewModel(rp, 0, 1)
    want = [i for i, e in enumerate(rp.events)
            if isinstance(e, CardPlayed | Discarded) and e.seat == 0
            and (isinstance(e, Discarded) or len(seat_view(rp.states[i], 0).legal()) > 1)]
    assert m.positions == want and len(m) == len(want) >= 10
    assert m.n_decisions == sum(isinstance(e, CardPlayed | Discarded) and e.seat == 0 for e in rp.events)
    assert not m.ready and m.decision(0) is None and m.curve() == [] and m.accuracy is None
    first, last = want[0], want[-1]
    # stepping: forwards and backwards, stopping at the ends
    assert m.next_position(0) == first and m.prev_position(first) == first
    assert m.next_position(first) == want[1] and m.prev_position(want[1]) == first
    assert m.next_position(last) == last and m.next_position(len(rp.events)) == last
    assert m.prev_position(first + 1) == first
    assert m.step_at(first - 1) is None and m.step_at(first) == 0 and m.step_at(want[1] - 1) == 0
    assert m.step_at(len(rp.events)) == len(want) - 1
    assert m.exactly_at(first) == 0 and m.exactly_at(first + 1) is None
    # what was played at each step, from the file alone
    for k, i in enumerate(want):
        e = rp.events[i]
        cards = [e.card] if isinstance(e, CardPlayed) else list(_bits(e.cards))
        assert m.played[k] == [rp.rules.pack.codes[c] for c in cards]
    assert m.result == next(e for e in rp.events if isinstance(e, DealScored)).points[rp.rules.side[0]]


def _bits(mask: int):
    c = 0
    while mask:
        if mask & 1:
            yield c
        mask >>= 1
        c += 1


def test_the_curve_is_the_expected_points_of_each_choice_trick_by_trick() -> None:
    rp = read_replay(SINGLE)
    m = ReviewModel(rp, 0, 1)
    review = review_deal(SINGLE, 0, 1, budget=QUICK, parallel=False)
    m.set_review(review)
    graded = [d for d in review.decisions if not d.forced]
    pts = m.curve()
    assert [(p.trick, p.played, p.best, p.label) for p in pts] == [
        (d.trick, d.expected_played, d.expected_best, d.label) for d in graded]
    assert [p.step for p in pts] == list(range(len(graded)))
    tricks = [p.trick for p in pts if p.trick]
    assert tricks == sorted(tricks) and len(set(tricks)) == len(tricks)  # one card a trick
    lo, hi = m.y_range()
    assert 0 <= lo < hi <= rp.rules.total
    assert all(lo <= v <= hi for p in pts for v in (p.played, p.best))
    assert lo <= m.result <= hi and lo <= m.even <= hi  # type: ignore[operator]
    t0, t1 = m.x_range()
    assert t1 == 15 and t0 == (0 if m.kinds[0] == "discard" else 1)
    counts = m.counts()
    assert [name for name, _c in counts] == list(LABEL_ORDER)
    assert sum(c for _n, c in counts) == len(graded)
    assert m.accuracy == review.accuracy and m.mean_loss == review.mean_loss
    with pytest.raises(ValueError):  # a review of another seat is not this deal's
        ReviewModel(rp, 1, 1).set_review(review)


def test_scarto_the_dealers_discard_of_three_comes_first(tmp_path: Path) -> None:
    f = _scarto_dealt_by(0, tmp_path / "scarto.jsonl")
    rp = read_replay(f)
    m = ReviewModel(rp, 0, 1)
    assert m.kinds[0] == "discard" and m.tricks[0] == 0 and len(m.played[0]) == 3
    m.set_review(review_deal(f, None, None, budget=QUICK, parallel=False))
    pts = m.curve()
    assert pts[0].trick == 0 and m.x_range() == (0, 25)
    assert max(p.trick for p in pts) <= 25
    assert m.even == pytest.approx(26.0) and m.rules.n_sides == 3
    lo, hi = m.y_range()
    assert 0 <= lo and hi <= 78


def test_a_seat_that_is_no_seat_is_refused() -> None:
    with pytest.raises(ValueError):
        ReviewModel(read_replay(SINGLE), 4, 1)


# --- the AI service's long calls ------------------------------------------------------------


def slow_steps(n: int, pause: float, *, progress) -> int:
    for k in range(n):
        time.sleep(pause)
        progress(k + 1, n)
    return os.getpid()


@pytest.mark.slow
@pytest.mark.parametrize("use_process", [True, False])
def test_a_long_call_reports_progress_and_its_answer(use_process: bool) -> None:
    svc = ai_service.AIService(use_process=use_process)
    try:
        call = ai_service.submit_long(slow_steps, 5, 0.02, svc=svc)
        seen = set()
        while not call.done():
            p = call.progress()
            if p is not None:
                seen.add(p)
            time.sleep(0.005)
        pid = call.result(timeout=60)
        assert (pid != os.getpid()) == use_process
        assert seen and all(t == 5 and 1 <= d <= 5 for d, t in seen)
        assert not os.path.exists(call.folder)  # its folder goes with it
    finally:
        svc.close()


@pytest.mark.slow
def test_a_stopped_long_call_stops_at_its_next_step_and_frees_the_service() -> None:
    svc = ai_service.AIService(use_process=True)
    try:
        call = ai_service.submit_long(slow_steps, 10_000, 0.01, svc=svc)
        while call.progress() is None:
            time.sleep(0.01)
        call.stop()
        with pytest.raises(ai_service.Stopped):
            call.result(timeout=60)
        assert svc.submit(os.getpid).result(timeout=60) != os.getpid()  # the helper is free again
        assert not os.path.exists(call.folder)
        # a queued call stopped before it began never runs
        first = ai_service.submit_long(slow_steps, 10_000, 0.01, svc=svc)
        queued = ai_service.submit_long(slow_steps, 3, 0.01, svc=svc)
        queued.stop()
        first.stop()
        for c in (first, queued):
            with pytest.raises((ai_service.Stopped, CancelledError)):
                c.result(timeout=60)
        assert svc.submit(int, "5").result(timeout=60) == 5
    finally:
        svc.close()


def test_the_review_is_the_same_in_the_ai_process() -> None:
    svc = ai_service.AIService(use_process=True)
    try:
        call = ai_service.submit_long(review_deal, str(SINGLE), 0, 1, budget=QUICK, svc=svc)
        there = call.result(timeout=120)
        assert svc.in_process
    finally:
        svc.close()
    here = review_deal(SINGLE, 0, 1, budget=QUICK, parallel=False)
    assert isinstance(there, Review) and there.decisions == here.decisions
