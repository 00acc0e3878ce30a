"""The theatre's timeline and replay list (pure model, no window)."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.replay import read_replay
from engine.state import CardPlayed, TrickTaken
from game.theatre.theatre_model import Timeline, list_replays

GOLDEN = Path(__file__).parent / "golden"


def test_steps_and_marks() -> None:
    t = Timeline.from_replay(read_replay(GOLDEN / "match-seed-7.jsonl"))
    assert t.n == 312
    kinds = [m.kind for m in t.marks]
    assert kinds.count("deal") == 4 and kinds.count("discard") == 4
    assert kinds.count("trick") == 60 and kinds.count("score") == 4
    # Stepping by card visits every card played and never stops just after a sweep.
    p, seen = 0, 0
    while True:
        q = t.next_card(p)
        if q == p:
            break
        assert q > p and type(t.events[q - 1]) is not TrickTaken or q == t.n
        seen += any(isinstance(e, CardPlayed) for e in t.events[p:q])
        p = q
    assert p == t.n and seen == 240
    while p:
        q = t.prev_card(p)
        assert q < p
        p = q
    # Stepping by trick lands on trick ends and deal starts.
    p = t.next_trick(0)
    assert p == 1 and t.state(p).deal_no == 1
    p = t.next_trick(p)
    assert type(t.events[p - 1]) is TrickTaken and t.state(p).trick_no == 1
    assert t.prev_trick(p) == 1
    assert t.at_fraction(1.0) == t.n and t.at_fraction(0) == 0 and t.clamp(-5) == 0


def test_browser_lists_newest_first_and_bad_files(tmp_path: Path) -> None:
    import os

    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    shutil.copy(GOLDEN / "single-seed-42.jsonl", a)
    shutil.copy(GOLDEN / "match-seed-7.jsonl", b)
    os.utime(a, (1_000_000, 1_000_000))
    os.utime(b, (2_000_000, 2_000_000))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "tarocchi-replay", "version": 9, "variant": "piedicavallo"}\n')
    os.utime(bad, (500_000, 500_000))
    entries = list_replays([tmp_path])
    assert [e.path.name for e in entries] == ["b.jsonl", "a.jsonl", "bad.jsonl"]
    assert entries[0].kind == "match" and entries[1].kind == "single deal"
    pts = read_replay(a).final.scores[0]
    assert entries[1].result.startswith(f"{pts[0]}-{pts[1]}")
    assert not entries[2].ok and "version 9" in entries[2].error


def test_live_timeline_grows_like_a_whole_one() -> None:
    rp = read_replay(GOLDEN / "match-seed-7.jsonl")
    whole = Timeline.from_replay(rp)
    events, states = [], [rp.states[0]]
    live = Timeline(events, states)
    for e, s in zip(rp.events, rp.states[1:], strict=True):
        events.append(e)
        states.append(s)
        if len(events) % 7 == 0:
            live.refresh()
    live.refresh()
    assert live.n == whole.n and live.marks == whole.marks
    assert all(live.next_card(p) == whole.next_card(p) for p in range(whole.n + 1))
    assert all(live.prev_trick(p) == whole.prev_trick(p) for p in range(whole.n + 1))
