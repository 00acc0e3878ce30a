"""The end of a deal at the table (no arcade): the score sheet, its pages, what the
table offers next, and the finished game filed as a replay.

When a deal is scored the table shows its :class:`~game.table.score_sheet.ScoreSheet`,
built from the viewer's own views (every card of the tricks is public by then;
the discard stays face down for all but its dealer).  The sheet has three pages
(its score, the deal's tricks, the viewer's pile and discard) and the table
offers a choice of what comes next (:attr:`DealEnd.choices`).  During play, a game
of several deals shows where it stands (:attr:`DealEnd.standing`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

from engine.scoring import view_breakdown
from engine.state import DealScored, trick_winners_of
from game.common import paths
from game.common.words import Msg, msg
from game.table import score_sheet
from game.table.table_api import Table
from game.table.table_session import TableSession

#: the pages of the end of a deal: its score, its tricks, the viewer's pile and discard
Page = Literal["score", "tricks", "piles"]
PAGES: tuple[Page, ...] = ("score", "tricks", "piles")
#: what the end of a deal offers: the next deal, another game, a page, the review, the
#: menu; and at the end of a lesson, the next lesson
Choice = Literal["next", "again", "score", "tricks", "piles", "review", "menu", "next_lesson"]


class DealEnd:
    """The sheet of the deal just scored while the table shows it (None during play)
    and the page of it on show."""

    def __init__(self, ctl: Table) -> None:
        self.ctl = ctl
        self.session = ctl.session
        self.rules = ctl.rules
        self.sheet: score_sheet.ScoreSheet | None = None
        self.page: Page = "score"

    def open(self, i: int, event: DealScored) -> score_sheet.ScoreSheet:
        """The sheet of the deal scored by event ``i``: the engine's breakdown of the
        position after the last trick, the deal's points, the scores so far."""
        before = self.session.view_at(i)  # the viewer's view after the last trick
        after = self.session.view_at(i + 1)
        rules = self.rules
        self.sheet = score_sheet.build(rules, view_breakdown(before), event.points, after.scores,
                                       after.n_deals, before.dealer, self.ctl.you, tricks=before.history,
                                       winners=trick_winners_of(rules, before.history),
                                       number=self.session.deal_number)
        return self.sheet

    def game_over_at(self, i: int) -> bool:
        """Whether the deal scored by event ``i`` was the game's last."""
        after = self.session.view_at(i + 1)
        return len(after.scores) >= after.n_deals

    def close(self) -> None:
        """The sheet put away (the next deal, or the table laid out again)."""
        self.sheet = None
        self.page = "score"

    @property
    def choices(self) -> tuple[Choice, ...]:
        """What the end of a deal offers, the first the default (its key N): the next
        deal, or once the game is over another game; the other pages of the deal
        (its score, its tricks, your pile and discard); its review where it has a
        file; the menu.  Nothing while no sheet waits for a choice.  An online table
        that stopped (its seat opened elsewhere, its server gone): the menu."""
        ctl = self.ctl
        if ctl.stopped:
            return ("menu",)
        if ctl.waiting != "scoring" or self.sheet is None:
            return ()
        if not ctl.finished:
            first: tuple[Choice, ...] = ("next",)
        else:
            first = ("again",) if ctl.on_again is not None else ()
        pages = tuple(p for p in PAGES if p != self.page)
        review: tuple[Choice, ...] = ("review",) if ctl.on_review is not None and self.review_path is not None else ()
        return (*first, *pages, *review, "menu")

    @property
    def review_path(self) -> Path | None:
        """The file the deal just scored is in: the replay once the game is filed,
        the autosave while a match goes on."""
        return self.ctl.replay_path if self.ctl.finished else self.session.autosave_path

    def choose(self, choice: Choice) -> None:
        """One of :attr:`choices`."""
        ctl = self.ctl
        if choice not in self.choices:
            return
        page = next((p for p in PAGES if p == choice), None)
        if page is not None:
            self.page = page
        elif choice == "next":
            ctl.continue_()
        elif choice == "again":
            ctl.close()
            assert ctl.on_again is not None
            ctl.on_again()
        elif choice == "review":
            path = self.review_path
            assert ctl.on_review is not None and path is not None
            ctl.on_review(path)
        elif choice == "menu":
            ctl.close()
            if ctl.on_exit:
                ctl.on_exit()

    @property
    def standing(self) -> Msg | None:
        """Where the game stands, for the table (a game of several deals): the deal
        on the table and the totals of the deals finished before it."""
        pos = self.ctl.position(self.ctl.shown)
        if pos.n_deals <= 1 or pos.deal_no < 1 or self.sheet is not None:  # the sheet says it all
            return None
        scored = len(pos.scores)
        totals = tuple(self.rules.totals(pos.scores)) if scored else ()
        deal = min(pos.deal_no, pos.n_deals)
        return msg("standing", deal=deal, n_deals=pos.n_deals, totals=totals, scored=scored)

    def viewer_won(self, whole_game: bool) -> bool:
        """The viewer's side is among the winners of the deal (or of the game)."""
        sheet = self.sheet
        if sheet is None:
            return False
        outcome = sheet.game_outcome if whole_game else sheet.outcome
        return outcome is not None and sheet.viewer_side in outcome.winners


def file_game(session: TableSession) -> Path | None:
    """The finished game filed as a replay (a local game's autosave is archived and
    cleared in one step; an online game's log is written from the server's
    events); None where it could not be, said on stderr (it is filed at the next
    start)."""
    try:
        return session.archive()
    except (OSError, paths.DataFolderError) as exc:
        print(f"tarocchi: the finished game stays in the autosave for now: {exc}", file=sys.stderr)
        return None


__all__ = ["PAGES", "Choice", "DealEnd", "Page", "file_game"]
