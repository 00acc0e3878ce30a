"""The SQLite store: what it keeps, what it refuses, and that a reload gives it back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from online.sqlite_store import SqliteStore
from online.store import SeqConflict, TableRecord, token_hash


def test_append_reload_and_a_second_append_of_a_seq_is_refused(tmp_path: Path) -> None:
    async def main() -> None:
        st = SqliteStore(tmp_path / "s.sqlite3")
        rec = TableRecord("ABCDEF", "scarto", 1, 2**62 + 5, [{"kind": "human"}] * 3,
                          {"turn_seconds": 0}, token_hash("h" * 43))
        tid = await st.create_table(rec)
        await st.set_token(tid, 0, token_hash("t" * 43))
        await st.append(tid, 1, ['{"a":1}', '{"a":2}'], (0, "c1"), "playing")
        # the same seq again, in the same group as a good append: only it is refused
        results = await asyncio.gather(
            st.append(tid, 2, ['{"dup":1}']), st.append(tid, 3, ['{"a":3}'], (0, "c2")),
            return_exceptions=True)
        assert isinstance(results[0], SeqConflict) and results[1] is None
        with pytest.raises(SeqConflict):
            await st.append(tid, 4, ['{"a":4}'], (0, "c1"))  # a command id twice: refused whole
        await st.close()
        st2 = SqliteStore(tmp_path / "s.sqlite3")
        [back] = await st2.load()
        assert back.events == ['{"a":1}', '{"a":2}', '{"a":3}']
        assert back.seed == 2**62 + 5 and back.status == "playing"
        assert back.commands == {(0, "c1"): 2, (0, "c2"): 3}
        assert back.tokens == {0: token_hash("t" * 43)} and "t" * 43 not in str(back.tokens)
        await st2.close()

    asyncio.run(main())


def test_the_wal_is_emptied_past_its_limit_and_nothing_is_lost(tmp_path: Path) -> None:
    """A server committing all the time: the checkpoints alone never let SQLite
    start its WAL afresh, which grew without end (and its index in memory); past
    ``wal_limit`` the checkpointer empties it, and every event is still there."""
    limit = 256 * 1024
    wal = tmp_path / "s.sqlite3-wal"

    async def main() -> None:
        st = SqliteStore(tmp_path / "s.sqlite3", synchronous="NORMAL", wal_limit=limit)
        ids = [await st.create_table(TableRecord(f"T{t:05d}", "scarto", 1, 5,
                                                 [{"kind": "human"}] * 3, {}, "h", "playing"))
               for t in range(8)]
        biggest = 0
        for seq in range(1, 601):  # seq 1 first
            await asyncio.gather(*(st.append(i, seq, [f'{{"n": {seq}, "pad": "{"x" * 400}"}}'])
                                   for i in ids))
            biggest = max(biggest, wal.stat().st_size if wal.exists() else 0)
        assert biggest > 4 * limit  # the commits outran the checkpoints for a while
        for _ in range(200):  # the checkpointer looks once a second: up to 20 s
            if wal.exists() and wal.stat().st_size <= limit:
                break
            await asyncio.sleep(0.1)
        assert wal.stat().st_size <= limit, wal.stat().st_size
        back = await st.load()
        assert sorted(len(r.events) for r in back) == [600] * 8
        assert back[0].events[-1].startswith('{"n": 600')
        await st.close()

    asyncio.run(main())
