"""``tarocchi bench soak``, small: games and abandoned lobbies through one server,
every finished game kept in the store, no table left in memory at the end.  (The
memory figures over thousands of games are in docs/SERVER.md; a test asserts
behaviour, not a figure.)"""

from __future__ import annotations

import sys

import pytest

from game.cli import main
from online.soak import run_soak, verdict


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and binds 127.0.1.x")
def test_a_small_soak_leaves_no_table_in_memory() -> None:
    # one address a game: the clients play at machine speed, far past a person's
    # rate, and the server's limit of messages a second per address would refuse them
    out = run_soak(24, 24, variant="scarto", at_once=6, expiry=0.3, every=0.5, addresses=24,
                   timeout=240)
    assert (out["games"], out["lobbies"], out["failed"], out["timed_out"]) == (24, 24, {}, False)
    assert out["tables_in_memory_end"] == {"lobby": 0, "playing": 0, "over": 0}
    assert out["store"]["over"] == 24 and out["store"]["expired"] == 24 and out["replays"] == 24
    assert out["samples"] and all(s["rss_kb"] > 0 for s in out["samples"])
    assert max(s.get("lobby", 0) for s in out["samples"]) <= 24
    assert verdict(out, 24, 24) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and binds 127.0.1.x")
def test_a_soak_from_one_address_is_refused_by_its_limit_and_still_ends() -> None:
    # six games at machine speed from one address: past the messages a second an
    # address may send; the refused clients hear it and stop, the soak reports it
    out = run_soak(12, 4, variant="scarto", at_once=6, expiry=0.3, every=0.5, addresses=1,
                   timeout=120)
    assert out["timed_out"] is False
    assert out["failed"].get("rate_limited", 0) > 0
    assert out["games"] < 12
    assert verdict(out, 12, 4)


def test_the_verdict_names_what_falls_short() -> None:
    ok = {"games": 5000, "lobbies": 5000, "rss_growth_percent": 3.0,
          "tables_in_memory_end": {"lobby": 0, "playing": 0, "over": 0}}
    assert verdict(ok, 5000, 5000) == []
    grown = {**ok, "rss_growth_percent": 12.5, "tables_in_memory_end": {"lobby": 2}}
    bad = verdict(grown, 5000, 5000)
    assert any("12.5%" in b for b in bad) and any("lobby" in b for b in bad)
    assert verdict({**ok, "games": 4999}, 5000, 5000)


def test_the_soak_and_the_limits_have_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "soak", "--help"])
    text = capsys.readouterr().out
    for option in ("--games", "--lobbies", "--at-once", "--lobby-expiry", "--addresses",
                   "--timeout"):
        assert option in text
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = capsys.readouterr().out
    for option in ("--lobby-expiry", "--per-address-connections", "--per-address-lobbies",
                   "--per-address-rate", "--hello-seconds", "--wrong-codes", "--trusted-proxy"):
        assert option in text
    with pytest.raises(SystemExit) as exc:
        main(["serve", "--trusted-proxy", "proxy.example"])
    assert exc.value.code == 2 and "not an IP address" in capsys.readouterr().err
