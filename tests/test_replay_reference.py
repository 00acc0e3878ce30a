"""The engine's replay reader against an independent reference of each game.

Each reference (tests/support/reference_piedicavallo.py,
tests/support/reference_scarto.py) writes random legal files the way another
correct program might and reads files as the spec says; the frame they share and
the mutation kinds are tests/support/replay_reference.py.  Every check here runs
once for each game: the engine must accept every legal file with the same position
and scores, and refuse every single-mutation breach at the same line, citing a rule.
Each game's literal positions are in tests/test_engine_adversarial.py
(Piedicavallo) and tests/test_scarto_reference.py (Scarto).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.game import Game
from engine.replay import ReplayError, format_replay, parse_replay
from engine.ruleset import ruleset
from engine.state import OVER
from tests.support import reference_piedicavallo, reference_scarto
from tests.support.replay_reference import (
    COMMON_ALWAYS_LEGAL,
    COMMON_MAY_STAY_LEGAL,
    check_agrees,
    mutate,
    mutations,
    plain,
    render,
)

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = [reference_piedicavallo, reference_scarto]


@pytest.fixture(params=REFERENCES, ids=[r.NAME for r in REFERENCES])
def ref(request: pytest.FixtureRequest) -> ModuleType:
    module: ModuleType = request.param
    return module


def test_reference_reads_the_engines_own_files(ref: ModuleType) -> None:
    """Sanity of the reference: it reads the engine's own files, single deals and
    whole games, to the same position."""
    rnd = random.Random(4)
    for seed, n in [(1, 1), (2, ref.MATCH_DEALS), (3, 1)]:
        g = Game(seed, n, rules=ruleset(ref.NAME))
        while g.legal():
            g.submit(rnd.choice(g.legal()))
        text = format_replay(g.header, g.events)
        assert ref.ref_read(text) == ref.engine_summary(g.state)


@pytest.mark.slow
def test_random_legal_files_are_accepted_with_the_same_scores(ref: ModuleType) -> None:
    rnd = random.Random(1)
    cover: set[str] = set()
    for w in ref.games():
        cover |= w.coverage
        text = render(rnd, w.header, w.events)
        want = ref.ref_read(text)
        got = parse_replay(text).final
        assert ref.engine_summary(got) == want
        assert got.deal_no == got.n_deals == len(want["scores"])
        assert got.phase == OVER
        for pts in want["scores"]:
            assert sum(pts) == ref.DEAL_POINTS
        dealers = [e["dealer"] for e in w.events if e["type"] == "deal"]
        assert dealers == [(dealers[0] + k) % ref.SEATS for k in range(len(dealers))]
    # The random games did reach the corners of the rules that matter here.
    for c in ref.COVERAGE:
        assert c in cover, c


@pytest.mark.slow
def test_files_cut_anywhere_rebuild_the_position(ref: ModuleType) -> None:
    rnd = random.Random(2)
    for w in ref.games()[::2]:
        for _ in range(3):
            k = rnd.randrange(1, len(w.events) + 1)
            text = render(rnd, w.header, w.events[:k])
            assert check_agrees(ref, text) == "ok"
            rep = parse_replay(text)
            assert len(rep.states) == k + 1 and len(rep.events) == k
            st = rep.states[-1]
            mine = w.states[k] if k < len(w.events) else None
            if mine is not None:
                theirs = ref.engine_summary(st)
                assert theirs["hands"] == mine.summary()["hands"]
                assert theirs["trick"] == mine.summary()["trick"]
                assert (st.turn, st.leader) == (mine.turn, mine.leader), (k, w.events[k - 1])


@pytest.mark.slow
def test_files_cut_inside_a_line(ref: ModuleType) -> None:
    """A cut anywhere in the text: a line cut short is bad JSON, refused at its
    number; a cut between the CR and LF of a line end keeps the file whole."""
    rnd = random.Random(4)
    n = 0
    for w in ref.games()[1::6]:
        text = render(rnd, w.header, w.events, crlf=rnd.random() < 0.5)
        for _ in range(4):
            cut = text[: rnd.randrange(0, len(text))]
            assert check_agrees(ref, cut) in ("ok", "refused")
            n += 1
        if "\r\n" in text:
            i = text.index("\r\n", len(text) // 2)
            assert check_agrees(ref, text[: i + 1]) == "ok"
    assert n > 80


@pytest.mark.slow
def test_the_command_line_check_agrees(ref: ModuleType, tmp_path: Path) -> None:
    rnd = random.Random(5)
    files, wants = [], []
    for i, w in enumerate(ref.games()[::8]):
        p = tmp_path / f"g{i}.jsonl"
        p.write_text(render(rnd, w.header, w.events), encoding="utf-8", newline="")
        files.append(p)
        wants.append([list(x) for x in ref.ref_read(p.read_text(encoding="utf-8"))["scores"]])
    bad = tmp_path / "bad.jsonl"
    first = ref.games()[0]
    evs = json.loads(json.dumps(first.events))
    i = next(i for i, e in enumerate(evs) if e["type"] == "score")
    evs[i]["points"] = [p + (1 if k == 0 else -1 if k == 1 else 0)
                        for k, p in enumerate(evs[i]["points"])]
    bad.write_text(plain(first.header, evs), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "game.cli", "check", "--json",
                        *map(str, files), str(bad)], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    out = [json.loads(ln) for ln in r.stdout.splitlines() if ln.strip()]
    assert len(out) == len(files) + 1, r.stdout + r.stderr
    for o, pts in zip(out, wants, strict=False):
        assert o["ok"] is True and o["points"] == pts, o
    assert out[-1]["ok"] is False and out[-1]["line"] == i + 2
    assert any(r in out[-1]["error"] for r in ref.SCORE_RULES), out[-1]
    assert r.returncode != 0


@pytest.mark.slow
def test_single_mutations_agree_with_the_reference(ref: ModuleType) -> None:
    """Every mutation kind, on a sample of the files: where the reference says the
    file breaks a rule the engine refuses it at the same line citing a rule; where
    the reference says it is still legal the engine accepts it with the same
    position.  (Each kind also cut short now and then.)"""
    rnd = random.Random(15)
    kinds = mutations(ref)
    outcome_of: dict[str, set[str]] = {m: set() for m in kinds}
    n = 0
    for k, w in enumerate(ref.games()[ref.MUTATION_SAMPLE]):
        for j in range(ref.MUTATIONS_PER_GAME):
            name = kinds[(k * 7 + j * 4 + rnd.randrange(4)) % len(kinds)]
            evs, head = mutate(ref, w, rnd, name)
            if evs == w.events and head == w.header:
                continue
            if rnd.random() < 0.25:  # also cut off somewhere after the mutation
                evs = evs[: rnd.randrange(len(evs) // 2, len(evs) + 1)]
            text = render(rnd, head, evs) if rnd.random() < 0.5 else plain(head, evs)
            outcome_of[name].add(check_agrees(ref, text))
            n += 1
    assert n > 900, n
    always_legal = COMMON_ALWAYS_LEGAL | ref.ALWAYS_LEGAL
    may_stay_legal = COMMON_MAY_STAY_LEGAL | ref.MAY_STAY_LEGAL
    for m in kinds:  # every kind was tried, and every breach seen refused
        assert outcome_of[m], m
        if m in always_legal:
            assert outcome_of[m] == {"ok"}, m
        elif m not in may_stay_legal:
            assert "refused" in outcome_of[m], m


def test_bad_json_lines_are_refused_at_their_line(ref: ModuleType) -> None:
    rnd = random.Random(16)
    w = ref.games()[1]
    lines = plain(w.header, w.events).split("\n")
    for bad in ["", "   ", "\r", "{", '{"type": "play"', "{'type': 'play'}", "[", "nul",
                '{"a":1}{}', '{"type": "play", "seat": 0, "card": "SK",}']:
        k = rnd.randrange(1, len(lines) - 1)
        text = "\n".join(lines[:k] + [bad] + lines[k:])
        with pytest.raises(ReplayError) as exc:
            parse_replay(text)
        assert exc.value.line == k + 1, str(exc.value)
        assert check_agrees(ref, text) == "refused"
    with pytest.raises(ReplayError) as exc:
        parse_replay("\n" + "\n".join(lines))
    assert exc.value.line == 1
