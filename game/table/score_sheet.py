"""What the scoring scene shows, as data (pure Python, no arcade).

Every figure comes from the engine: the parts of each side's points from
:func:`engine.scoring.breakdown`, the deal's points from its ``DealScored``,
each deal's score, the running totals and who wins or loses from the ruleset
(``deal_scores``, ``totals``, ``deal_outcome``, ``game_outcome``).  This module
only chooses the rows a player of each game wants to read, from what the game
has: Piedicavallo's tricks, Matto, discard and sweep (R10, R11); Scarto's
count in threes (S6): the card points of the tricks, 2 off every three cards,
1 off the two other cards of the Matto's trick, the Matto counted on its own,
the dealer's discard as a group of its own, the count, and the deal score
(count - 26), each row worded as a player says it.

Labels are msgids with their arguments (the view translates them), so the
sheet is the same in every language and can be tested without a window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ruleset import Outcome, Ruleset
from engine.scoring import DISCARD, MATTO_TRICK, TRICK, Group, SideScore
from game.common.i18n import N_


@dataclass(frozen=True)
class Row:
    label: str  # a msgid
    args: tuple[tuple[str, object], ...]
    values: tuple[int, ...]  # by side
    counted: bool = True  # counted up by the scene's animation
    signed: bool = False  # shown with its sign (+3, -18)
    strong: bool = False  # a total


@dataclass(frozen=True)
class TrickLine:
    """One trick of the deal, for the review: who led, the cards in the order
    they were played, who took it (the engine's winner)."""

    number: int  # from 1
    leader: int
    cards: tuple[int, ...]
    winner: int

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card (play runs to the next seat)."""
        n = len(self.cards)
        return tuple((self.leader + i) % n for i in range(n))

    @property
    def winning_card(self) -> int:
        return self.cards[self.seats.index(self.winner)]


@dataclass(frozen=True)
class ScoreSheet:
    rules: Ruleset
    viewer: int | None  # the seat that is "you" (None: nobody at this table)
    deal: int  # this deal's number, from 1
    n_deals: int
    rows: tuple[Row, ...]
    points: tuple[int, ...]  # the deal's points by side (the engine's DealScored)
    outcome: Outcome  # of the deal
    #: each finished deal's score by side (the ruleset's deal_scores), this one included
    history: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]  # over the finished deals
    game_outcome: Outcome | None  # once the game is over (the last deal scored)
    #: by side, the groups counted (the dealer's discard without its cards where
    #: the viewer did not deal: nobody else sees it, S4)
    groups: tuple[tuple[Group, ...], ...] = ()
    dealer: int = -1
    #: the deal's tricks in order (every card of them is public once played)
    tricks: tuple[TrickLine, ...] = ()
    #: the game's seed, once the game is over: typed in the
    #: practice set-up, it deals the same cards again (None while a game goes on)
    number: int | None = None

    @property
    def over(self) -> bool:
        return self.game_outcome is not None

    @property
    def viewer_side(self) -> int:
        return self.rules.side[self.viewer if self.viewer is not None else 0]

    def pile(self, side: int) -> tuple[int, ...]:
        """The cards a side took in its tricks (and its own Matto), by trick."""
        return tuple(c for g in self.groups[side] if g.kind != DISCARD for c in g.cards)

    @property
    def discard(self) -> tuple[int, ...] | None:
        """The dealer's discard as the viewer may see it: its cards where the viewer
        dealt, None where another seat did (nobody else sees it, R6 and S4)."""
        if self.viewer is None or self.viewer != self.dealer:
            return None
        side = self.rules.side[self.dealer]
        for g in self.groups[side] if self.groups else ():
            if g.kind == DISCARD:
                return g.cards
        return ()

    def check(self) -> None:
        """The counted rows of each side add up to the engine's points for it."""
        for side, pts in enumerate(self.points):
            got = sum(r.values[side] for r in self.rows if r.counted and not r.strong)
            if got != pts:
                raise AssertionError(f"rows of side {side} add up to {got}, not {pts}")


def _adjust(groups: Sequence[Group], kinds: tuple[str, ...]) -> int:
    return sum(g.value - g.points for g in groups if g.kind in kinds)


def _rows(rules: Ruleset, parts: Sequence[SideScore]) -> list[Row]:
    def row(label: str, values: Iterable[int], **kw: Any) -> Row:
        args = tuple(sorted(kw.pop("args", {}).items()))
        return Row(label, args, tuple(values), **kw)

    rows = [
        row(N_("Tricks won"), (p.tricks_won for p in parts), counted=False),
        row(N_("Card points in tricks"), (p.tricks for p in parts)),
    ]
    if rules.trick_adjust:  # counting in threes (S6), said in plain words
        rows.append(row(N_("Counted in threes: {n} off every three cards"),
                        (_adjust(p.groups, (TRICK, DISCARD)) for p in parts), signed=True,
                        args={"n": -rules.trick_adjust}))
        if rules.matto_trick_adjust:
            rows.append(row(N_("The Matto's trick: {n} off its other two cards"),
                            (_adjust(p.groups, (MATTO_TRICK,)) for p in parts), signed=True,
                            args={"n": -(rules.trick_adjust + rules.matto_trick_adjust)}))
        rows.append(row(N_("The Matto, counted on its own"), (p.matto for p in parts)))
        rows.append(row(N_("The dealer's discard"), (p.discard for p in parts)))
    else:
        rows.append(row(N_("Matto"), (p.matto for p in parts)))
        rows.append(row(N_("Discard"), (p.discard for p in parts)))
    if rules.surrender:
        rows.append(row(N_("Sweep (R11)"), (p.sweep for p in parts), signed=True))
    rows.append(row(N_("Count") if rules.par else N_("Points"), (p.total for p in parts), strong=True))
    if rules.par:
        rows.append(row(N_("Deal score: the count less {par}"), (p.deal_score for p in parts), signed=True,
                        strong=True, args={"par": rules.par}))
    return rows


def build(rules: Ruleset, parts: Sequence[SideScore], points: Sequence[int],
          scores: Sequence[Sequence[int]], n_deals: int, dealer: int,
          viewer: int | None, tricks: Sequence[tuple[int, Sequence[int]]] = (),
          winners: Sequence[int] = (), number: int | None = None) -> ScoreSheet:
    """The sheet of the deal just scored: its ``parts`` (the engine's breakdown), its
    ``points`` (the DealScored), ``scores`` (every finished deal's points, this one
    included), the game's length, its dealer and the viewer; ``tricks`` (leader,
    cards) and their ``winners`` (the engine's) for the review of the deal."""
    history = tuple(rules.deal_scores(s) for s in scores)
    over = len(scores) >= n_deals
    groups = []
    for p in parts:
        gs = []
        for g in p.groups:
            if g.kind == DISCARD and viewer != dealer:
                g = Group(g.kind, (), g.points, g.value, g.trick)
            gs.append(g)
        groups.append(tuple(gs))
    sheet = ScoreSheet(
        rules=rules,
        viewer=viewer,
        deal=len(scores),
        n_deals=n_deals,
        rows=tuple(_rows(rules, parts)),
        points=tuple(points),
        outcome=rules.deal_outcome(points),
        history=history,
        totals=rules.totals(scores),
        game_outcome=rules.game_outcome(scores) if over and n_deals > 1 else None,
        groups=tuple(groups),
        dealer=dealer,
        tricks=tuple(TrickLine(i + 1, leader, tuple(cards), w)
                     for i, ((leader, cards), w) in enumerate(zip(tricks, winners, strict=True))),
        number=number if over else None,
    )
    sheet.check()
    return sheet


__all__ = ["Row", "ScoreSheet", "TrickLine", "build"]
