"""The server's store, the same tests on both implementations: SQLite (the
default) and PostgreSQL (a throw-away cluster: tests/support/pg_cluster.py).
Events go into one append-only log keyed by (table, seq): a second event n is
refused (SeqConflict) and nothing of that append is written, also when two
writers race for it; the loser reloads and goes on after the winner.  Then the
PostgreSQL store's own parts: the schema's version row and its migration, the
append-only trigger, and the leases that fence a node's writes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from online.sqlite_store import SqliteStore
from online.store import CodeTaken, SeqConflict, Store, TableRecord, token_hash

Opener = Callable[[], Awaitable[Any]]


def _record(code: str = "ABCDEF") -> TableRecord:
    return TableRecord(code=code, variant="piedicavallo", deals=1, seed=(1 << 62) + 12345,
                       seats=[{"kind": "human", "level": None, "name": ""}] * 4,
                       settings={"turn_seconds": 0}, host_hash=token_hash("host"))


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """An async function that opens one more store on the same database (each
    store is one writer: two are two servers sharing it)."""
    if request.param == "sqlite":
        async def open_sqlite() -> Any:
            return SqliteStore(tmp_path / "tarocchi.sqlite3")
        return open_sqlite
    dsn = request.getfixturevalue("pg_dsn")
    from online.pg_store import PgStore

    async def open_pg() -> Any:
        return await PgStore.open(dsn)
    return open_pg


def run(coro: Awaitable[Any]) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))  # type: ignore[arg-type]


def test_a_table_round_trips(opener: Opener) -> None:
    async def go() -> None:
        s: Store = await opener()
        rec = _record()
        tid = await s.create_table(rec)
        assert tid == rec.id and tid > 0
        await s.set_token(tid, 2, token_hash("t2"))
        await s.set_token(tid, 2, token_hash("t2b"))  # a seat's token replaced
        seats = [dict(x) for x in rec.seats]
        seats[1] = {"kind": "ai", "level": "easy", "name": "easy"}
        await s.update_table(tid, seats=seats, status="playing")
        await s.append(tid, 1, ['{"e":1}', '{"e":2}'])
        await s.append(tid, 3, ['{"e":3}'], command=(2, "c-1"), status="over")
        await s.close()
        s = await opener()
        # a finished table stays in the store: read by its code, not loaded at start-up
        assert rec.code not in [r.code for r in await s.load()]
        assert (rec.code, tid) in await s.finished()
        got = await s.load_code(rec.code)
        assert await s.load_code("ZZZZZZ") is None
        await s.close()
        assert got is not None
        assert (got.id, got.variant, got.deals, got.seed) == (tid, "piedicavallo", 1, rec.seed)
        assert got.seats == seats and got.settings == rec.settings and got.status == "over"
        assert got.events == ['{"e":1}', '{"e":2}', '{"e":3}']
        assert got.tokens == {2: token_hash("t2b")} and got.commands == {(2, "c-1"): 3}
        assert got.host_hash == token_hash("host")

    run(go())


def test_a_taken_seq_is_refused_and_nothing_of_that_append_is_written(opener: Opener) -> None:
    async def go() -> None:
        s: Store = await opener()
        tid = await s.create_table(_record())
        await s.update_table(tid, status="playing")
        await s.append(tid, 1, ["a1", "a2"])
        with pytest.raises(SeqConflict):
            await s.append(tid, 2, ["b2", "b3"], command=(0, "x"), status="over")
        await s.append(tid, 3, ["a3"])  # the store goes on after a refusal
        await s.close()
        s = await opener()
        (got,) = await s.load()
        await s.close()
        assert got.events == ["a1", "a2", "a3"]  # b3 was not written with b2 refused
        assert got.commands == {} and got.status == "playing"

    run(go())


@pytest.mark.slow
def test_two_writers_racing_for_event_n_exactly_one_is_kept_and_the_loser_reloads(
        opener: Opener) -> None:
    """Two stores (two servers) append the same seq at the same moment, 30 times
    over: each seq is kept once, from one writer, and the other writer was told
    (SeqConflict); it reloads the log and appends after the winner."""
    rounds = 30

    async def go() -> None:
        a: Store = await opener()
        b: Store = await opener()
        tid = await a.create_table(_record())
        wins = {"a": 0, "b": 0}
        seq = 1
        for i in range(rounds):
            results = await asyncio.gather(
                a.append(tid, seq, [json.dumps({"by": "a", "i": i})]),
                b.append(tid, seq, [json.dumps({"by": "b", "i": i})]),
                return_exceptions=True)
            ok = [w for w, r in zip("ab", results, strict=True) if r is None]
            lost = [r for r in results if r is not None]
            assert len(ok) == 1 and len(lost) == 1, results
            assert isinstance(lost[0], SeqConflict)
            wins[ok[0]] += 1
            loser = b if ok[0] == "a" else a
            (rec,) = await loser.load()  # the loser reloads: the winner's event is there
            assert len(rec.events) == seq and json.loads(rec.events[-1]) == {"by": ok[0], "i": i}
            await loser.append(tid, seq + 1, [json.dumps({"by": "after", "i": i})])
            seq += 2
        (rec,) = await a.load()
        assert len(rec.events) == 2 * rounds
        assert [json.loads(e)["i"] for e in rec.events] == [i for i in range(rounds) for _ in "xy"]
        await a.close()
        await b.close()

    run(go())


# --- PostgreSQL only ----------------------------------------------------------------


def test_pg_schema_has_a_version_row_and_migrates_once(pg_dsn: str) -> None:
    import psycopg

    from online.pg_store import SCHEMA_VERSION, PgStore, StoreError

    async def go() -> None:
        s = await PgStore.open(pg_dsn)
        await s.create_table(_record())
        await s.close()
        s = await PgStore.open(pg_dsn)  # a second start: nothing migrated again, nothing lost
        assert [r.code for r in await s.load()] == ["ABCDEF"]
        await s.close()

    run(go())
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM tarocchi_schema").fetchall() == [(SCHEMA_VERSION,)]
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("INSERT INTO events (table_id, seq, event) SELECT id, 1, 'x' FROM tables")
            conn.execute("UPDATE events SET event = 'y'")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("DELETE FROM events")
        conn.execute("UPDATE tarocchi_schema SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match=f"version {SCHEMA_VERSION + 1}, newer"):
        run(PgStore.open(pg_dsn))


@pytest.mark.slow
def test_pg_leases_fence_the_writes_of_a_node_that_lost_its_table(pg_dsn: str) -> None:
    """Node A creates a table (its lease); node B may not write it, nor take it
    while A's lease runs.  A stops renewing: B takes it after expiry, and from
    then A's writes are refused (LeaseLost, nothing written) and A's renewal
    says it lost the table."""
    from online.pg_store import LeaseLost, PgStore

    async def go() -> None:
        a = await PgStore.open(pg_dsn, node="A", url="ws://a", lease_seconds=0.6)
        b = await PgStore.open(pg_dsn, node="B", url="ws://b", lease_seconds=0.6)
        tid = await a.create_table(_record())
        await a.append(tid, 1, ["a1"])
        with pytest.raises(LeaseLost):
            await b.append(tid, 2, ["b2"])
        with pytest.raises(LeaseLost):
            await b.set_token(tid, 0, "h")
        lease = await b.acquire(tid)
        assert (lease.node, lease.url) == ("A", "ws://a")
        assert await a.renew([tid]) == {tid}
        found = await b.lookup("ABCDEF")
        assert found is not None and found.node == "A"
        assert await b.orphans() == []
        await a.update_table(tid, status="playing")
        await asyncio.sleep(0.8)  # A stops renewing: its lease expires
        found = await b.lookup("ABCDEF")
        assert found is not None and found.node is None
        assert await b.orphans() == [tid]
        lease = await b.acquire(tid)
        assert (lease.node, lease.url) == ("B", "ws://b")
        with pytest.raises(LeaseLost):
            await a.append(tid, 2, ["a2"])
        assert await a.renew([tid]) == set()
        rec = await b.load_table(tid)
        assert rec is not None and rec.events == ["a1"]
        await b.append(tid, 2, ["b2"])
        await b.release([tid])
        assert await a.orphans() == [tid]  # released: taken at once, no expiry to wait
        for s in (a, b):
            await s.close()

    run(go())


def test_pg_appends_of_many_tables_commit_together_each_fenced(pg_dsn: str) -> None:
    """Appends made in the same loop iteration go in one group (one transaction):
    the tables this node holds are written, a table whose lease another node took
    is refused alone (LeaseLost), and a taken seq refuses only its own append
    (SeqConflict), the others of the group committed all the same."""
    from online.pg_store import LeaseLost, PgStore

    async def go() -> None:
        import psycopg

        a = await PgStore.open(pg_dsn, node="A", url="ws://a", lease_seconds=30)
        b = await PgStore.open(pg_dsn, node="B", url="ws://b", lease_seconds=30)
        tids = [await a.create_table(_record(f"GRP{i:03d}")) for i in range(6)]
        lost = tids[5]
        async with await psycopg.AsyncConnection.connect(pg_dsn, autocommit=True) as conn:
            await conn.execute("UPDATE leases SET expires_at = now() - interval '1 s'"
                               " WHERE table_id = %s", (lost,))  # as if A had stalled
        assert (await b.acquire(lost)).node == "B"
        await a.append(tids[4], 1, ["taken"])
        commits = a.commits
        results = await asyncio.gather(
            *(a.append(t, 1, [f"e{t}", f"f{t}"], (0, f"c{t}"), "playing") for t in tids),
            return_exceptions=True)
        assert [r is None for r in results] == [True, True, True, True, False, False]
        assert isinstance(results[4], SeqConflict) and not isinstance(results[4], LeaseLost)
        assert isinstance(results[5], LeaseLost)
        assert a.commits - commits <= 5  # one group, then each alone after the taken seq
        for t in tids[:4]:
            rec = await b.load_table(t)
            assert rec is not None and rec.events == [f"e{t}", f"f{t}"]
            assert rec.commands == {(0, f"c{t}"): 2} and rec.status == "playing"
        for t, events in ((tids[4], ["taken"]), (lost, [])):
            rec = await b.load_table(t)
            assert rec is not None and rec.events == events and rec.status == "lobby"
        # without the taken seq, the same kind of group is one transaction
        commits = a.commits
        await asyncio.gather(*(a.append(t, 3, [f"g{t}"]) for t in tids[:4]))
        assert a.commits - commits == 1
        for s in (a, b):
            await s.close()

    run(go())


def test_a_code_already_given_is_refused_as_taken_and_nothing_is_written(opener: Opener) -> None:
    """Codes stay a table's for ever (a finished game is found by its code): a new
    table with a taken code is refused with CodeTaken, the first untouched."""
    async def go() -> None:
        s: Store = await opener()
        first = _record("CLASH2")
        tid = await s.create_table(first)
        await s.append(tid, 1, ["a1"], status="over")
        with pytest.raises(CodeTaken):
            await s.create_table(_record("CLASH2"))
        other = await s.create_table(_record("CLASH3"))  # the store goes on
        await s.close()
        s = await opener()
        got = await s.load_code("CLASH2")
        await s.close()
        assert got is not None and got.id == tid and got.events == ["a1"] and other > tid

    run(go())
