"""Deal review (``engine.review``, ``tarocchi review``): grades from the seat's view."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.ai import pool
from engine.players import make_player
from engine.replay import format_replay, parse_replay, write_replay
from engine.review import REVIEW, Grader, Review, Valued, beyond_noise, label, review_replay
from engine.simulate import play_game
from engine.variants import PIEDICAVALLO, SCARTO
from game.cli import main

#: a light review: a few rounds a decision
QUICK = Grader(rounds=4, discard_rounds=2)

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
    a = review_replay(rp, 0, budget=QUICK, parallel=False)
    b = review_replay(rp, 0, budget=QUICK, parallel=False)
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


@pytest.mark.slow
def test_a_random_seat_loses_more_than_twice_what_a_searching_seat_loses() -> None:
    loss = {"medium": 0.0, "random": 0.0}
    for seed in (1, 2):
        rp = _replay(seed, ["medium", "random", "medium", "random"])
        for seat, who in enumerate(["medium", "random", "medium", "random"]):
            loss[who] += review_replay(rp, seat, budget=QUICK, parallel=False).mean_loss
    assert loss["random"] > 2 * loss["medium"] > 0


def test_scarto_review_grades_the_dealers_discard_among_its_candidates() -> None:
    rp = _replay(3, ["easy", "random", "random"], SCARTO)
    dealer = rp.events[0].dealer  # type: ignore[union-attr]
    r = review_replay(rp, dealer, budget=QUICK, parallel=False)
    kinds = [d.kind for d in r.decisions]
    assert kinds[0] == "discard" and kinds.count("play") == 25
    d = r.decisions[0]
    assert len(d.played.split()) == 3 and len(d.best.split()) == 3 and d.options > 1000


@pytest.mark.slow
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


def test_the_summary_counts_real_choices_only() -> None:
    rp = _replay(6, ["random", "easy", "random", "easy"])
    r = review_replay(rp, 0, budget=QUICK, parallel=False)
    assert r.graded == [d for d in r.decisions if d.real]
    assert all(not d.real for d in r.decisions if d.forced)
    assert len(r.graded) < len(r.decisions)  # forced cards at least
    losses = [d.loss for d in r.graded]
    assert r.mean_loss == pytest.approx(sum(losses) / len(losses))
    assert r.accuracy == pytest.approx(100 * sum(1 for x in losses if x == 0) / len(losses))
    for d in r.decisions:
        if not d.real:  # listed, not graded: no loss, and the same figure for played and best
            assert d.loss == 0 and d.expected_best == d.expected_played


def test_a_gap_within_the_search_s_noise_is_no_loss() -> None:
    # two cards on four deals: 1 point apart on average, but 3 up and 1 down: noise
    noisy = Valued([1, 2], [1.0] * 4, [[10, 7], [7, 10], [10, 7], [7, 9]])
    gap, se = noisy.gap(0, 1)
    assert gap == pytest.approx(0.25) and se > 0.5
    assert beyond_noise(gap, se, REVIEW) == 0.0
    # the same gap on every deal: a real loss
    steady = Valued([1, 2], [1.0] * 4, [[10, 8], [9, 7], [12, 10], [8, 6]])
    gap, se = steady.gap(0, 1)
    assert (gap, se) == (pytest.approx(2.0), pytest.approx(0.0))
    assert beyond_noise(gap, se, REVIEW) == pytest.approx(2.0)
    assert beyond_noise(0.2, 0.0, REVIEW) == 0.0  # a fifth of a point: within the margin


@pytest.mark.slow
def test_random_play_and_hard_play_of_the_same_deals_stand_clearly_apart() -> None:
    """South random, then South hard, on the same five deals beside three hard
    seats (light work: the README's figures are 20 deals at the review's own)."""
    from engine.ai.cli import make_level

    grader = Grader(rounds=40, discard_rounds=10)
    got = {}
    for south in ("random", "hard"):
        decisions = []
        for seed in range(1, 6):
            hard = [make_level("hard", None, parallel=False, rounds=10) for _ in range(4)]
            players = [make_player("random") if south == "random" else hard[0], *hard[1:]]
            g = play_game(seed, players, rules=PIEDICAVALLO)
            rp = parse_replay(format_replay(g.header, g.events))
            decisions += review_replay(rp, 0, budget=grader, parallel=False).decisions
        got[south] = Review("", "piedicavallo", 0, 0, decisions)
    rand, hard = got["random"], got["hard"]
    print({k: (round(v.mean_loss, 3), round(v.accuracy, 1)) for k, v in got.items()})
    assert rand.mean_loss > 0 and rand.mean_loss >= 3 * hard.mean_loss
    assert rand.accuracy <= hard.accuracy - 20


def test_review_command_names_cards_and_sums_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.review

    monkeypatch.setattr(engine.review, "REVIEW", QUICK)
    files = []
    for seed in (9, 10):
        g = play_game(seed, [make_player("random") for _ in range(4)], rules=PIEDICAVALLO)
        f = tmp_path / f"deal-{seed}.jsonl"
        write_replay(f, g.header, g.events)
        files.append(str(f))
    assert main(["review", files[0], "--quiet"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"trick  1: (\w+ of \w+|trump \d+|the Matto) ", text), text  # by name
    assert "real choice" in text and "1 decisions" not in text
    assert main(["review", files[0], "--quiet", "--codes"]) == 0
    assert re.search(r"trick  1: ([SBCD](\d+|[KQNJ])|T\d+|M) ", capsys.readouterr().out)
    assert main(["review", *files, "--quiet", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x.get("file") for x in lines[:2]] == files and lines[2]["files"] == 2
    assert lines[2]["graded"] == lines[0]["graded"] + lines[1]["graded"]
