"""Your record (game/common/record.py): deals and games from replay files, idempotent
notes, migrations, rebuild, the stats command, and a database that survives
being killed mid-write."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.common import record

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
MATCH_POINTS = [[40, 74], [52, 62], [42, 72], [58, 56]]  # tests/golden/match-seed-7.jsonl


def golden(name: str, dest: Path, **header) -> Path:
    """A copy of a golden replay, its header changed (the engine checks events, not labels)."""
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines(keepends=True)
    h = json.loads(lines[0])
    h["players"] = ["human", *h["players"][1:]]  # yours: a person at the table (South)
    h.update(header)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(h) + "\n" + "".join(lines[1:]), encoding="utf-8")
    return dest


def scarto(dest: Path, scores: list[list[int]], *, deals: int | None = 3, players=None, **header) -> Path:
    """A Scarto replay with the lines the record reads (deal and score events)."""
    h = {"format": "tarocchi-replay", "version": 1, "variant": "scarto", "seed": 9,
         "players": players or ["human", "hard", "easy"], "created": "2026-12-02T09:00:00Z", **header}
    if deals is not None:
        h["deals"] = deals
    lines = [json.dumps(h)]
    for i, pts in enumerate(scores):
        lines.append(json.dumps({"type": "deal", "dealer": i % 3, "hands": [[], [], []], "stock": []}))
        lines.append(json.dumps({"type": "play", "seat": 0, "card": "T1"}))
        if pts is not None:
            lines.append(json.dumps({"type": "score", "points": pts}))
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dest


def totals() -> dict:
    con = record.connect()
    try:
        return record.summary(con)
    finally:
        con.close()


def rows(sql: str, *args):
    con = record.connect()
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


# --- results -----------------------------------------------------------------------------------


def test_deal_results_for_your_side_in_both_games():
    P, S = record.VARIANTS["piedicavallo"], record.VARIANTS["scarto"]
    assert record.deal_outcome(P, 0, [60, 54]) == (60, 54, 3, "win")
    assert record.deal_outcome(P, 1, [60, 54]) == (54, 60, -3, "loss")  # East plays for team 1
    assert record.deal_outcome(P, 3, [57, 57])[3] == "draw"
    assert record.deal_outcome(S, 0, [30, 20, 28]) == (30, 48, 4, "win")
    assert record.deal_outcome(S, 1, [30, 20, 28])[2:] == (-6, "loss")
    assert record.deal_outcome(S, 2, [26, 26, 26])[2:] == (0, "draw")
    # S6: the lowest count loses the deal, whatever the par: 26 is a win over 22,
    # 27 a loss when it is the lowest
    assert record.deal_outcome(S, 0, [26, 30, 22])[2:] == (0, "win")
    assert record.deal_outcome(S, 0, [27, 27, 24])[3] == "win"
    assert record.deal_outcome(S, 2, [24, 27, 27])[3] == "win"
    assert record.deal_outcome(S, 0, [24, 27, 27])[3] == "loss"


def test_game_results_match_totals_and_scarto_lowest_loses():
    P, S = record.VARIANTS["piedicavallo"], record.VARIANTS["scarto"]
    assert record.game_outcome(P, 0, MATCH_POINTS) == ([192, 264], 192, 264, "loss")
    assert record.game_outcome(P, 2, [[60, 54], [54, 60]])[3] == "draw"
    # deal scores: seat 0 +4-6+0 = -2, seat 1 -6+4-4 = -6, seat 2 +2+2+4 = 8
    deals = [[30, 20, 28], [20, 30, 28], [26, 22, 30]]
    assert record.game_outcome(S, 2, deals) == ([-2, -6, 8], 8, -8, "win")
    assert record.game_outcome(S, 1, deals)[3] == "loss"
    assert record.game_outcome(S, 0, deals)[3] == "win"  # not the lowest: the table says it wins (S6)
    shared_low = [[22, 22, 34]]
    assert [record.game_outcome(S, s, shared_low)[3] for s in range(3)] == ["loss", "loss", "win"]
    assert record.game_outcome(S, 0, [[26, 26, 26]])[3] == "draw"


# --- noting replays ---------------------------------------------------------------------------------


def test_noting_a_match_records_each_deal_once_and_the_game_when_complete(home):
    assert totals()["deals"] == 0
    full = golden("match-seed-7.jsonl", home / "replays" / "m.jsonl", players=["easy", "human", "easy", "easy"])
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    second_score = [i for i, ln in enumerate(lines) if '"type": "score"' in ln][1]
    full.write_text("".join(lines[: second_score + 3]), encoding="utf-8")  # two deals and a bit
    assert record.note_replay(full) == 2
    assert record.note_replay(full) == 0  # the same file again: nothing changes
    s = totals()
    assert (s["deals"], s["games"]) == (2, 0)
    full.write_text("".join(lines), encoding="utf-8")
    assert record.note_replay(full) == 2
    assert record.note_replay(full) == 0
    s = totals()
    assert (s["deals"], s["games"]) == (4, 1)
    # the human sits East (team 1): the points are team 1's
    got = rows("SELECT deal_no, seat, human, us, them, result, opponents, partner FROM deals ORDER BY deal_no")
    assert [(r[3], r[4]) for r in got] == [(74, 40), (62, 52), (72, 42), (56, 58)]
    assert [r[5] for r in got] == ["win", "win", "win", "loss"]
    assert got[0][1:3] == (1, 1) and got[0][6:] == ("easy", "easy")
    assert rows("SELECT n_deals, totals, us, them, result FROM games") == [(4, "[192, 264]", 264, 192, "win")]
    assert s["played_by_you"] == 4 and s["by_level"]["easy"]["win_rate"] == 0.75


def test_scarto_game_from_the_format_document(home):
    assert totals()["deals"] == 0
    f = scarto(home / "replays" / "s.jsonl", [[30, 20, 28], [20, 30, 28], [22, 26, 30]],
               players=["hard", "human", "medium"])
    assert record.note_replay(f) == 3
    got = rows("SELECT variant, seat, us, them, score, result, opponents FROM deals ORDER BY deal_no")
    assert got == [("scarto", 1, 20, 58, -6, "loss", "hard/medium"),
                   ("scarto", 1, 30, 48, 4, "win", "hard/medium"),
                   ("scarto", 1, 26, 52, 0, "win", "hard/medium")]  # 22 is the lowest count (S6)
    # totals: seat 0 +4-6-4 = -6, seat 1 -6+4+0 = -2, seat 2 +2+2+4 = 8: seat 0 has the
    # lowest total and loses; seat 1 is not the lowest, so the table says it wins
    assert rows("SELECT totals, us, result, partner FROM games") == [("[-6, -2, 8]", -2, "win", None)]
    s = totals()
    assert s["by_variant"]["scarto"]["mean_points"] == 25.33
    assert s["by_level"]["hard/medium"]["deals"] == 3


def test_identity_is_the_header_plus_the_name_when_there_is_no_creation_time(home):
    assert totals()["deals"] == 0
    a = golden("single-seed-42.jsonl", home / "replays" / "a.jsonl")
    b = golden("single-seed-42.jsonl", home / "replays" / "b.jsonl")  # same game, another file
    c = golden("single-seed-42.jsonl", home / "elsewhere" / "a.jsonl")  # same name: the same file moved
    assert [record.note_replay(p) for p in (a, b, c)] == [1, 1, 0]
    d = golden("single-seed-42.jsonl", home / "replays" / "d.jsonl", created="2026-12-02T09:00:00Z")
    e = golden("single-seed-42.jsonl", home / "autoplay" / "e.jsonl", created="2026-12-02T09:00:00Z")
    assert [record.note_replay(p) for p in (d, e)] == [1, 0]  # one game archived twice
    assert rows("SELECT played_at FROM deals WHERE file = ?", str(d.resolve())) == [("2026-12-02T09:00:00Z",)]


def test_what_is_not_recorded(home, capsys):
    ok = golden("single-seed-42.jsonl", home / "replays" / "ok.jsonl")
    golden("single-seed-42.jsonl", home / "replays" / "watch-1.jsonl", watch=True, created="x")
    torn = golden("match-seed-7.jsonl", home / "replays" / "torn.jsonl")
    torn.write_text(torn.read_text(encoding="utf-8")[:-20], encoding="utf-8")  # killed mid-line
    (home / "replays" / "junk.jsonl").write_text("{not json\n", encoding="utf-8")
    (home / "replays" / "deep").mkdir()
    (home / "replays" / "deep" / "other.jsonl").write_text('{"format": "something"}\n', encoding="utf-8")
    cheat = golden("single-seed-42.jsonl", home / "autoplay" / "cheat.jsonl")
    text = cheat.read_text(encoding="utf-8")
    pts = json.loads(text.splitlines()[-1])["points"]
    cheat.write_text(text.replace(json.dumps({"type": "score", "points": pts}),
                                  json.dumps({"type": "score", "points": [114, 0]})), encoding="utf-8")
    scarto(home / "autoplay" / "bad-sum.jsonl", [[30, 30, 30]])
    c = record.rebuild()
    err = capsys.readouterr().err.splitlines()
    assert sorted(Path(line.split(": ")[1]).name for line in err) == \
        ["bad-sum.jsonl", "cheat.jsonl", "junk.jsonl", "other.jsonl"]  # one line each
    assert (c["files"], c["skipped"], c["watched"]) == (2, 4, 1)
    assert c["deals"] == 1 + 3  # ok, and the torn match's three whole deals
    assert record.note_replay(ok) == 0
    assert record.note_safely(home / "missing.jsonl") == 0  # one line, no exception
    assert "could not note" in capsys.readouterr().err


# --- the database -------------------------------------------------------------------------------------


def test_a_version_1_database_is_migrated(home):
    p = home / "record.sqlite3"
    con = record.connect(p, target=1)
    assert record.schema_version(con) == 1
    assert "accuracy" not in [r[1] for r in con.execute("PRAGMA table_info(deals)")]
    con.execute("INSERT INTO deals VALUES ('k', 1, 'f', '2026-01-01T00:00:00Z', 'piedicavallo', '[]', 0, 1, 0,"
                " 0, 'easy', 'easy', '[60, 54]', 60, 54, 3, 'win')")
    con.close()
    con = record.connect()
    assert record.schema_version(con) == record.SCHEMA_VERSION == 2
    assert con.execute("SELECT us, result, accuracy FROM deals").fetchall() == [(60, "win", None)]
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 1
    con.close()
    con = sqlite3.connect(p)
    con.execute("UPDATE schema_version SET version = 99")
    con.commit()
    con.close()
    with pytest.raises(record.NewerDatabase):
        record.connect()
    with pytest.raises(record.NewerDatabase):
        record.rebuild()  # a newer program's record is left alone
    assert sqlite3.connect(p).execute("SELECT version FROM schema_version").fetchone() == (99,)


def test_first_use_counts_the_replays_already_kept(home):
    golden("match-seed-7.jsonl", home / "replays" / "old.jsonl")
    assert not (home / "record.sqlite3").exists()
    assert (totals()["deals"], totals()["games"]) == (4, 1)


def test_accuracy_is_set_by_file_and_deal_and_survives_a_rebuild(home):
    f = golden("match-seed-7.jsonl", home / "replays" / "m.jsonl")
    assert record.set_accuracy(f, 2, 87.5)  # not noted yet: noted first
    assert not record.set_accuracy(f, 9, 50.0)
    assert not record.set_accuracy(f, 1, 50.0, seat=1)  # another seat's review is not yours
    with pytest.raises(ValueError):
        record.set_accuracy(f, 1, 120.0)
    assert totals()["mean_accuracy"] == 87.5
    record.rebuild()
    assert rows("SELECT deal_no, accuracy FROM deals WHERE accuracy IS NOT NULL") == [(2, 87.5)]


def test_rebuild_gives_the_same_totals_and_replaces_a_broken_file(home):
    for i in range(3):
        record.note_replay(golden("match-seed-7.jsonl", home / "replays" / f"m{i}.jsonl"))
    record.note_replay(scarto(home / "autoplay" / "x" / "s.jsonl", [[30, 20, 28], [20, 30, 28], [22, 26, 30]]))
    before = totals()
    record.rebuild()
    assert totals() == before
    assert (before["deals"], before["games"]) == (15, 4)
    (home / "record.sqlite3").write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        (home / f"record.sqlite3{suffix}").unlink(missing_ok=True)
    with pytest.raises(record.RecordError):
        record.connect()
    record.rebuild()
    assert totals() == before
    assert (home / "record.sqlite3.broken").exists()


def test_stats_command(home, capsys):
    assert main(["stats"]) == 0
    assert "empty" in capsys.readouterr().out
    golden("match-seed-7.jsonl", home / "replays" / "m.jsonl")
    assert main(["stats", "--rebuild", "--json"]) == 0
    out = capsys.readouterr()
    s = json.loads(out.out.strip().splitlines()[-1])
    for k in ("deals", "games", "wins", "draws", "losses", "by_level", "by_variant", "mean_accuracy"):
        assert k in s
    assert (s["deals"], s["games"], s["wins"], s["losses"]) == (4, 1, 1, 3)
    assert s["by_level"]["random"]["deals"] == 4
    assert "rebuilt from 1 file (0 skipped" in out.err  # one file: no "1 files"
    assert main(["stats"]) == 0
    text = capsys.readouterr().out
    assert "4 deals: 1 won, 0 drawn, 3 lost" in text
    assert "1 game: 1 won" in text or "1 game: 0 won" in text, text


# --- killed mid-write ----------------------------------------------------------------------------------

WRITER = """
import json, sys
from pathlib import Path
from game.common import record
src = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines(keepends=True)
out = Path(sys.argv[2])
con = record.connect()
for i in range(100000):
    h = json.loads(src[0]); h["created"] = f"2026-01-01T00:00:00.{i:06d}Z"; h["n"] = sys.argv[3]
    f = out / f"m{sys.argv[3]}-{i}.jsonl"
    f.write_text(json.dumps(h) + "\\n" + "".join(src[1:]), encoding="utf-8")
    record.note_replay(f, con)
    if i % 5 == 0:
        record.set_accuracy(f, 1, float(i % 100))
    if i == 0:
        print("written", flush=True)
"""


def _run_and_kill(code: str, args: list[str], rng: random.Random, home: Path, wait: float = 0.6) -> None:
    env = dict(os.environ, TAROCCHI_HOME=str(home), PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "written"  # it is writing now
        try:
            p.wait(timeout=rng.uniform(0.0, wait))
        except subprocess.TimeoutExpired:
            pass
        assert p.poll() is None, "the writer stopped by itself"
        os.kill(p.pid, signal.SIGKILL)
    finally:
        p.wait()
        p.stdout.close()


def _check_opens(home: Path) -> tuple[int, int]:
    con = sqlite3.connect(home / "record.sqlite3")
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        deals, games = con.execute("SELECT (SELECT COUNT(*) FROM deals), (SELECT COUNT(*) FROM games)").fetchone()
    finally:
        con.close()
    return deals, games


@pytest.mark.slow
def test_killing_a_writer_at_random_moments_leaves_a_database_that_opens(home):
    rng = random.Random(16)
    src = GOLDEN / "match-seed-7.jsonl"
    out = home / "replays"
    out.mkdir(parents=True)
    seen = 0
    for n in range(6):
        _run_and_kill(WRITER, [str(src), str(out), str(n)], rng, home)
        deals, games = _check_opens(home)
        assert deals == 4 * games  # a file's deals and game are written together, or not at all
        assert deals > seen  # each run wrote something before it was killed
        seen = deals
        s = totals()  # and the program carries on with it (AI-only games: counted apart)
        assert s["deals"] + s["ai_only"]["deals"] == deals
    # nothing lost for good: the files are the source
    c = record.rebuild()
    assert c["deals"] >= seen


REBUILDER = """
import sys, time
from game.common import record
mode, at = sys.argv[1], float(sys.argv[2])

def stop():
    print("written", flush=True)
    time.sleep(60)

if mode == "read":  # killed while reading the replay files
    read, seen = record.read_record, []
    def read_record(path, **kw):
        seen.append(path)
        if len(seen) == int(at * 120):
            stop()
        return read(path, **kw)
    record.read_record = read_record
else:  # killed while the new record is copied over the old, page by page
    record.BACKUP_PAGES = 1
    def progress(status, remaining, total):
        if remaining <= total * (1 - at):
            stop()
    record._backup_progress = progress
record.rebuild()
print("written", flush=True)
time.sleep(60)
"""


@pytest.mark.slow
def test_killing_a_rebuild_leaves_the_old_record(home):
    rng = random.Random(61)
    out = home / "replays"
    for i in range(40):
        golden("match-seed-7.jsonl", out / f"m{i}.jsonl")
    record.note_replay(out / "m0.jsonl")  # the first use imports all 40
    assert totals()["deals"] == 160
    for i in range(40, 120):
        golden("match-seed-7.jsonl", out / f"m{i}.jsonl")
    for n in range(4):
        mode = "read" if n % 2 == 0 else "copy"
        _run_and_kill(REBUILDER, [mode, str(rng.uniform(0.05, 0.95))], rng, home, wait=0.0)
        assert _check_opens(home) == (160, 40), mode
        assert totals()["deals"] == 160
    assert list(home.glob("record.sqlite3.rebuild-*"))  # the killed rebuild's own file
    record.rebuild()
    assert _check_opens(home) == (480, 120)
    assert not list(home.glob("record.sqlite3.rebuild-*"))  # dropped by the next rebuild


# --- the record says what the table says --------------------------------------------


def _table_verdict(outcome, side: int) -> str:
    """What the table announces for ``side`` (the score sheet's outcome, as the table
    reads it: its sound and its words name the winners and the losers)."""
    return "draw" if outcome.draw else "win" if side in outcome.winners else "loss"


def test_scarto_verdicts_of_the_record_are_the_tables_on_30_deals(home):
    import dataclasses

    from engine.players import make_player
    from engine.replay import read_replay, write_replay
    from engine.ruleset import ruleset
    from engine.scoring import state_breakdown
    from engine.simulate import play_game
    from engine.state import DealScored, trick_winners
    from game.table import score_sheet

    rules = ruleset("scarto")
    table: list[tuple[str, int, str]] = []  # (file, deal, the table's verdict)
    table_games: dict[str, str] = {}
    old_rule_differs = 0  # deals where "count against 26" says otherwise: the test can tell
    for g in range(10):  # 10 games of 3 deals: 30 deals, the human in each seat in turn
        game = play_game(1000 + g, [make_player("random") for _ in range(3)], 3, rules=rules)
        you = g % 3
        players = ["random"] * 3
        players[you] = "human"
        header = dataclasses.replace(game.header, players=players,
                                     extra={**game.header.extra, "created": f"2026-12-0{1 + g % 9}T10:00:00Z",
                                            "id": f"g{g}"})
        path = home / "replays" / f"scarto-{g}.jsonl"
        write_replay(path, header, game.events)
        rp = read_replay(path)
        for i, e in enumerate(rp.events):
            if not isinstance(e, DealScored):
                continue
            before, st = rp.states[i], rp.states[i + 1]
            sheet = score_sheet.build(rules, state_breakdown(before), e.points, st.scores, st.n_deals,
                                      before.dealer, you, tricks=before.tricks,
                                      winners=trick_winners(before))
            table.append((str(path.resolve()), len(st.scores), _table_verdict(sheet.outcome, sheet.viewer_side)))
            if sheet.over:
                table_games[str(path.resolve())] = _table_verdict(sheet.game_outcome, sheet.viewer_side)
            old = "win" if e.points[you] > rules.par else "draw" if e.points[you] == rules.par else "loss"
            old_rule_differs += old != table[-1][2]
        record.note_replay(path)  # (the first note imports the files already there)
    assert len(table) == 30 and old_rule_differs > 0
    got = {(f, n): r for f, n, r in rows("SELECT file, deal_no, result FROM deals")}
    assert got == {(f, n): r for f, n, r in table}
    assert dict(rows("SELECT file, result FROM games")) == table_games
    s = totals()
    assert (s["deals"], s["games"], s["ai_only"]["deals"]) == (30, 10, 0)
    assert (s["wins"], s["draws"], s["losses"]) == tuple(
        sum(1 for *_, r in table if r == k) for k in ("win", "draw", "loss"))
