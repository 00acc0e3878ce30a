"""Deal review (``engine.review``, ``tarocchi review``): grades from the seat's view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.ai import pool
from engine.ai.players import MEDIUM
from engine.players import make_player
from engine.replay import format_replay, parse_replay, write_replay
from engine.review import label, review_replay
from engine.simulate import play_game
from engine.variants import PIEDICAVALLO, SCARTO
from game.cli import main

pool.set_parallel(False)


def _replay(seed: int, players: list[str], rules=PIEDICAVALLO):  # type: ignore[no-untyped-def]
    g = play_game(seed, [make_player(p) for p in players], rules=rules)
    return parse_replay(format_replay(g.header, g.events))


def test_labels_follow_the_chess_names() -> None:
    assert [label(x) for x in (0.0, 0.5, 1.99, 2.0, 4.9, 5.0, 9.9, 10.0, 40.0)] == [
        "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake",
        "blunder", "blunder",
    ]


def test_every_decision_of_the_seat_is_graded_and_the_review_repeats() -> None:
    rp = _replay(4, ["medium", "random", "easy", "random"])
    a = review_replay(rp, 0, budget=MEDIUM, parallel=False)
    b = review_replay(rp, 0, budget=MEDIUM, parallel=False)
    assert a == b  # same file and seed, same review
    plays = [e for e in rp.events if getattr(e, "seat", None) == 0]
    assert len(a.decisions) == len(plays)  # the discard (when South deals) and 15 cards
    assert sum(d.kind == "play" for d in a.decisions) == 15
    for d in a.decisions:
        assert d.loss >= 0 and d.loss == pytest.approx(max(0.0, d.expected_best - d.expected_played), abs=2e-3)
        assert d.label == label(d.loss) or d.forced
        if d.label == "best":
            assert d.best == d.played
    js = a.to_json()
    for key in ("file", "seat", "decisions", "mean_loss", "accuracy"):
        assert key in js
    for key in ("index", "kind", "played", "best", "expected_played", "expected_best", "loss", "label"):
        assert key in js["decisions"][0]
    assert 0 <= js["accuracy"] <= 100


def test_a_random_seat_loses_more_than_twice_what_a_searching_seat_loses() -> None:
    loss = {"medium": 0.0, "random": 0.0}
    for seed in (1, 2):
        rp = _replay(seed, ["medium", "random", "medium", "random"])
        for seat, who in enumerate(["medium", "random", "medium", "random"]):
            loss[who] += review_replay(rp, seat, budget=MEDIUM, parallel=False).mean_loss
    assert loss["random"] > 2 * loss["medium"] > 0


def test_scarto_review_grades_the_dealers_discard_among_its_candidates() -> None:
    rp = _replay(3, ["easy", "random", "random"], SCARTO)
    dealer = rp.events[0].dealer  # type: ignore[union-attr]
    r = review_replay(rp, dealer, budget=MEDIUM, parallel=False)
    kinds = [d.kind for d in r.decisions]
    assert kinds[0] == "discard" and kinds.count("play") == 25
    d = r.decisions[0]
    assert len(d.played.split()) == 3 and len(d.best.split()) == 3 and d.options > 1000


def test_review_command_prints_json_last(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = play_game(9, [make_player("random") for _ in range(4)], rules=PIEDICAVALLO)
    f = tmp_path / "deal.jsonl"
    write_replay(f, g.header, g.events)
    assert main(["review", str(f), "--seat", "1", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert out["seat"] == 1 and out["file"] == str(f) and len(out["decisions"]) >= 15
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n")
    assert main(["review", str(bad), "--quiet"]) == 1
    assert "not a Tarocchi replay" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse: one line, exit 2
        main(["review", str(f), "--seat", "4", "--quiet"])
    assert refused.value.code == 2 and "--seat" in capsys.readouterr().err
