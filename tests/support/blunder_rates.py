"""Visible blunders at the last card of a trick, counted from the rules.

The last card of a trick is the one decision where everything that matters to
the trick is on the table: the seat to play sees every other card of it, so
whether its card keeps, gives or throws points is plain to anyone watching.
These counts are written from RULES.md (R3-R4, R7-R9 for Piedicavallo, S2-S3,
S5 for Scarto) and the engine's rule functions (legal plays, the trick's
winner), never from the AI's code.  Definitions, at the last card of a trick
(every other seat has played to it), ``winner`` being the seat whose card takes
the trick as it lies before the last card:

* ``keep_gift`` (partners only): the winner is the seat's partner and the seat
  could legally play a *gift*: a King, a Queen or trump 1 (the cards worth 4 or
  5 points that can still be lost in a later trick; at the last card any card
  played leaves the trick with the partnership).  A blunder when the card played
  is worth fewer points (R4) than the cheapest gift it held.
* ``overtake_partner`` (partners only): the winner is the partner, and the seat
  holds both a legal trump that beats the partner's card and a legal card other
  than the Matto that does not.  A blunder when it plays a trump that beats the
  partner's card (it spends a trump on a trick its side already has).
* ``five_to_opponents``: the winner is an opponent (partners: the other side;
  Scarto: either other player), and the seat holds a legal card worth 5 points
  (R4: a King, trump 1 or trump 21; S3: a King, trump 1 or trump 20) that would
  not take the trick, and a legal card other than the Matto worth fewer points.
  A blunder when it plays a 5-point card and the trick stays with the opponent.
  (The Matto is left out: it is never captured, R9/S5.)
* ``high_winner``: the winner is an opponent and at least two legal trumps take
  the trick.  A blunder when the seat takes it with a trump while a lower trump
  worth no more points (R4/S3) would have taken it too: the lowest winning card
  not played (trump 1 kept for a higher trump is not counted: giving the
  5-point trump 1 to one's own trick is the better play).

A *chance* of a kind is a last card where its condition holds; the rate is
blunders per chance.  Run ``python -m tests.support.blunder_rates --help`` for the full
counts (the figures of docs/AI.md); the suite's test uses a few deals.

``--replays DIR`` counts the same kinds in replay files instead (those of
``tarocchi tournament --replays DIR``): each position before a card played is
the engine's own (the replay reader replays every event through the rules),
the legal cards are the engine's, and each last card is counted for the player
named in that seat of the file's header (so a duplicate match between two
levels gives both levels' counts on the same deals).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.cards import TRUMP_SUIT
from engine.game import Game
from engine.players import Player
from engine.replay import read_replay
from engine.ruleset import Ruleset, ruleset
from engine.state import PLAY, CardPlayed, Play, legal_commands

PARTNER_KINDS = ("keep_gift", "overtake_partner", "five_to_opponents", "high_winner")
ALONE_KINDS = ("five_to_opponents", "high_winner")


def kinds_of(rules: Ruleset) -> tuple[str, ...]:
    return PARTNER_KINDS if rules.n_sides < rules.n_seats else ALONE_KINDS


def classify(
    rules: Ruleset, leader: int, trick: Sequence[int], legal: Sequence[int], card: int
) -> dict[str, bool]:
    """At the last card of a trick (``trick``: the cards before it, led by
    ``leader``; ``legal``: the seat's legal cards; ``card``: the one played),
    each kind whose chance this is, mapped to whether the card is that blunder."""
    p = rules.pack
    n = rules.n_seats
    assert len(trick) == n - 1
    seat = (leader + n - 1) % n
    matto = p.matto
    points = p.points
    strength = p.strength
    codes = p.codes

    def takes(c: int) -> bool:
        return rules.trick_winner_index([*trick, c]) == n - 1

    w = (leader + rules.trick_winner_index(trick)) % n
    out: dict[str, bool] = {}
    partner_wins = w != seat and rules.side[w] == rules.side[seat]
    trumps = [c for c in legal if p.suit[c] == TRUMP_SUIT]
    if partner_wins:
        gifts = [c for c in legal if codes[c] == "T1" or codes[c][1:] in ("K", "Q")]
        if gifts:
            out["keep_gift"] = points[card] < min(points[c] for c in gifts)
        over = [c for c in trumps if takes(c)]
        under = [c for c in legal if c != matto and not takes(c)]
        if over and under:
            out["overtake_partner"] = card in over
        return out
    if rules.side[w] == rules.side[seat]:  # (never: the last seat cannot lead the trick)
        return out
    fives = [c for c in legal if c != matto and points[c] == 5 and not takes(c)]
    cheaper = [c for c in legal if c != matto and points[c] < 5]
    if fives and cheaper:
        out["five_to_opponents"] = card != matto and points[card] == 5 and not takes(card)
    winners = [c for c in trumps if takes(c)]
    if len(winners) >= 2:
        out["high_winner"] = card in winners and any(
            strength[c] < strength[card] and points[c] <= points[card] for c in winners
        )
    return out


def empty_counts(rules: Ruleset) -> dict[str, Any]:
    return {
        "deals": 0,
        "last_cards": 0,
        "chances": dict.fromkeys(kinds_of(rules), 0),
        "blunders": dict.fromkeys(kinds_of(rules), 0),
    }


def count_deal(rules: Ruleset, seed: int, players: Sequence[Player], counts: dict[str, Any]) -> None:
    """Play one deal (seed ``seed``, ``players[s]`` in seat ``s``), adding its last
    cards to ``counts``."""
    game = Game(seed, 1, [pl.name for pl in players], rules=rules)
    n = rules.n_seats
    while True:
        legal = game.legal()
        if not legal:
            break
        st = game.state
        choice = players[st.turn].choose(game.view(st.turn), legal, game.cursor)
        assert choice in legal
        if st.phase == PLAY and len(st.trick) == n - 1:
            assert isinstance(choice, Play)
            cards = [c.card for c in legal if isinstance(c, Play)]
            counts["last_cards"] += 1
            for kind, bad in classify(rules, st.leader, st.trick, cards, choice.card).items():
                counts["chances"][kind] += 1
                counts["blunders"][kind] += int(bad)
        game.submit(choice)
    counts["deals"] += 1


def add_rates(counts: dict[str, Any]) -> dict[str, Any]:
    """``counts`` with ``rate`` (blunders per chance) and ``per_deal`` added."""
    counts["rate"] = {
        k: round(counts["blunders"][k] / counts["chances"][k], 4) if counts["chances"][k] else 0.0
        for k in counts["chances"]
    }
    counts["per_deal"] = {
        k: round(counts["blunders"][k] / max(1, counts["deals"]), 4) for k in counts["chances"]
    }
    return counts


def count_replays(paths: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The counts per player name (the names in the replays' headers) over
    every deal of the replay files ``paths``.  A name's ``deals`` is the seats
    it played (one a seat and deal) over the seats at the table: the deals'
    worth of decisions, as in self-play where one level plays every seat (a
    duplicate match of 200 deal pairs gives each of its two levels 200)."""
    out: dict[str, dict[str, Any]] = {}
    seats: dict[str, int] = {}  # seats played (one a seat and deal), by name
    n = 1  # seats at the table
    for path in paths:
        rep = read_replay(path)
        rules = rep.rules
        n = rules.n_seats
        names = rep.header.players
        seen: set[tuple[int, int]] = set()  # (seat, deal)
        for i, e in enumerate(rep.events):
            if not isinstance(e, CardPlayed):
                continue
            st = rep.states[i]
            seen.add((e.seat, st.deal_no))
            if st.phase != PLAY or len(st.trick) != n - 1:
                continue
            assert st.turn == e.seat, (path, i)
            legal = [c.card for c in legal_commands(st) if isinstance(c, Play)]
            assert e.card in legal, (path, i)
            c = out.setdefault(names[e.seat], empty_counts(rules))
            c["last_cards"] += 1
            for kind, bad in classify(rules, st.leader, st.trick, legal, e.card).items():
                c["chances"][kind] += 1
                c["blunders"][kind] += int(bad)
        for seat, _deal in seen:
            seats[names[seat]] = seats.get(names[seat], 0) + 1
            out.setdefault(names[seat], empty_counts(rules))
    for name, k in seats.items():
        out[name]["deals"] = k // n if k % n == 0 else round(k / n, 2)
    return {name: add_rates(c) for name, c in sorted(out.items())}


def make(level: str, budget_ms: int | None, rounds: int | None) -> Player:
    """A player of ``level`` (hard: a deadline of ``budget_ms`` or ``rounds`` of
    fixed work, on one core)."""
    from engine.ai.cli import make_level

    return make_level(level, budget_ms, parallel=False, rounds=rounds)


def count(
    level: str,
    variant: str,
    seeds: Iterable[int],
    budget_ms: int | None = None,
    rounds: int | None = None,
) -> dict[str, Any]:
    """Every seat played by ``level``, one deal a seed: the counts of each kind,
    with rates (blunders per chance, and per deal)."""
    rules = ruleset(variant)
    counts = empty_counts(rules)
    players = [make(level, budget_ms, rounds) for _ in range(rules.n_seats)]
    for seed in seeds:
        count_deal(rules, seed, players, counts)
    return add_rates(counts)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.support.blunder_rates",
        description="Count visible blunders at the last card of a trick (self-play).",
    )
    ap.add_argument("--level", help="easy, medium, hard or hard:key=value,... (self-play)")
    ap.add_argument("--replays", metavar="DIR",
                    help="count the replay files DIR/*.jsonl instead, per player in their headers")
    ap.add_argument("--variant", default="piedicavallo")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1, help="first deal seed (deals use seed, seed+1, ...)")
    ap.add_argument("--budget-ms", type=int, default=None, help="hard: deadline a decision")
    ap.add_argument("--budget-rounds", type=int, default=None, help="hard: fixed rounds a decision")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if (a.level is None) == (a.replays is None):
        ap.error("give either --level (self-play) or --replays DIR")
    if a.replays is not None:
        files = sorted(str(f) for f in Path(a.replays).glob("*.jsonl"))
        if not files:
            ap.error(f"no replay files (*.jsonl) in {a.replays}")
        per = count_replays(files)
        if a.json:
            print(json.dumps({"replays": a.replays, "files": len(files), "players": per}))
        else:
            for name, res in per.items():
                _print(name, f"{len(files)} files", res)
        return 0
    t = time.monotonic()
    res = count(a.level, a.variant, range(a.seed, a.seed + a.deals), a.budget_ms, a.budget_rounds)
    res.update(level=a.level, variant=a.variant, seed=a.seed, budget_ms=a.budget_ms,
               budget_rounds=a.budget_rounds, seconds=round(time.monotonic() - t, 1))
    if a.json:
        print(json.dumps(res))
    else:
        _print(a.level, a.variant, res)
    return 0


def _print(name: str, where: str, res: dict[str, Any]) -> None:
    print(f"{name} ({where}), {res['deals']} deals, {res['last_cards']} last cards:")
    for k in res["chances"]:
        print(f"  {k}: {res['blunders'][k]} of {res['chances'][k]} chances "
              f"({100 * res['rate'][k]:.1f}%), {res['per_deal'][k]:.3f} a deal")


if __name__ == "__main__":
    sys.exit(main())
