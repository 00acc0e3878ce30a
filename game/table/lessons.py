"""Learn to play: short lessons at the real table (no arcade).

A lesson is data (:class:`Lesson`): a game, a seed chosen so that the situation
it teaches arises, and its steps: the card (or the discard) the player makes at
each of their turns, what kind of move it is (the text worded from it) and the
rule ids of RULES.md it meets.  The other seats are the easy AI without slips,
whose choices are a pure function of their view, so a seed and the player's
moves replay the same deal every time.  The last lesson of each course is a
*free* deal with a coach: the player may play any legal card; the coach
suggests one (the same rules of thumb) and says why
(:mod:`engine.ai.reasons`).  The coach plays the Matto as a teacher would
(:func:`matto_now`, said in those lessons' introductions): on a trick the other
side is sure to take, when every other card it may play is worth points; never
while its partner is still to play, nor to save a 1-point card.

:class:`LessonController` runs a lesson at the table: a
:class:`~game.table.table_controller.TableController` over a :class:`LessonSession`
(a :class:`~game.table.table_session.LocalSession` with no autosave) that, at each of
the player's turns, lights the card to play, says what to do and why, and will
not go on until that move is made (a wrong legal move is explained and not
taken; an illegal one is refused as at any table, with what may be played
instead).  Which rules a move met is read from what happened (the engine's led
suit and trick winners), not from the data, and a test checks the two agree.

Progress (lessons finished, the step reached) is kept in ``lessons.json`` in
the data folder, written atomically.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.fast import kernel
from engine.ai.players import EasyPlayer, possible_hands
from engine.ai.reasons import Reason, reason
from engine.cards import TRUMP_SUIT, mask_cards
from engine.files import atomic_write
from engine.game import Game
from engine.players import Player
from engine.ruleset import Ruleset, ruleset
from engine.state import DISCARD, PLAY, CardPlayed, Command, Discard, Discarded, Play
from engine.view import SeatView
from game.common import paths
from game.common.i18n import N_
from game.common.settings import Settings
from game.common.words import MoveKind, Msg, msg
from game.table.ai_service import AIService
from game.table.deal_end import Choice
from game.table.table_api import Presenter
from game.table.table_controller import InlineExecutor, TableController
from game.table.table_session import LocalSession

# --- lessons as data -----------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One of the player's moves: ``cards`` (codes: one card, or the discard),
    ``kind`` (``lead``, ``follow``, ``trump``, ``any``: no suit and no trump,
    ``matto``, ``discard``) and the rule ids it meets."""

    cards: tuple[str, ...]
    kind: MoveKind
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Lesson:
    id: str
    game: str
    seed: int
    title: str  # msgid
    intro: str  # msgid: what the lesson is about, said before the first move
    steps: tuple[Step, ...] = ()
    #: a free deal with a coach: the steps are the coach's suggestions, worked out as
    #: the deal goes (``steps`` empty); the player may play any legal card
    free: bool = False
    #: rule ids met once the deal is scored (a free deal plays to the end)
    end_rules: tuple[str, ...] = ()


def _s(cards: str, kind: MoveKind, *rules: str) -> Step:
    return Step(tuple(cards.split()), kind, rules)


LESSONS: tuple[Lesson, ...] = (
    Lesson("p1-follow", "piedicavallo", 30, N_("Following suit"),
           N_("Play the suit that was led while you hold it (R7). The highest card of that suit takes the "
              "trick (R8). R, D, C, F on the cards are King, Queen, Knight, Jack."),
           (_s("T1", "follow", "R7"), _s("BJ", "follow", "R7"), _s("SQ", "follow", "R7"),
            _s("DK", "follow", "R7", "R8"), _s("S5", "lead", "R7"))),
    Lesson("p2-trump", "piedicavallo", 6, N_("Trumping when void"),
           N_("When you hold none of the suit led you must play a trump, and any trump beats every suit "
              "card (R7, R8). The winner of a trick leads the next."),
           (_s("C4", "follow", "R7"), _s("D6", "follow", "R7"), _s("SN", "follow", "R7"),
            _s("B6", "follow", "R7"), _s("T2", "trump", "R7", "R8"), _s("CQ", "lead", "R7"))),
    Lesson("p3-matto", "piedicavallo", 121, N_("The Matto"),
           N_("The Matto may be played on any trick instead of following or trumping. It never wins and "
              "goes back to your own team's pile (R9)."),
           (_s("M", "matto", "R9"), _s("T6", "follow", "R7"), _s("T15", "trump", "R7", "R8"),
            _s("CK", "lead", "R7"), _s("S6", "any", "R7"))),
    Lesson("p4-discard", "piedicavallo", 4, N_("The dealer's discard"),
           N_("The dealer holds 17 cards and lays 2 aside for the team's pile: never a King, trump 1, trump "
              "21 or the Matto; another trump only with no other choice, or to keep no trump at all (R6)."),
           (_s("BN CQ", "discard", "R6"), _s("B5", "follow", "R7"), _s("T6", "follow", "R7"))),
    Lesson("p5-coach", "piedicavallo", 3, N_("A whole deal with a coach"),
           N_("Play a whole deal; the coach lights a good card and says why. It plays the Matto only on a "
              "trick the other team is sure to take, to save a card worth points. At the end each team "
              "counts its points: 114 in all (R10, R12)."),
           free=True, end_rules=("R10", "R12")),
    Lesson("s1-play", "scarto", 10, N_("Following and trumping"),
           N_("Three players, each for themselves. Follow the suit led; with none of it, play a trump "
              "(S5). Trump 20 is the highest."),
           (_s("S3", "follow", "S5"), _s("D9", "follow", "S5"), _s("B3", "follow", "S5"),
            _s("C5", "follow", "S5"), _s("C2", "follow", "S5"), _s("T5", "trump", "S5"),
            _s("SQ", "lead", "S5"))),
    Lesson("s2-stock", "scarto", 4, N_("The stock and the discard"),
           N_("The dealer takes the 3 cards of the stock, then lays 3 aside on their own pile: never a "
              "King, trump 20 or the Matto; trump 1 only with no other trump and no Matto among the 28 "
              "cards (S4)."),
           (_s("CN CQ DQ", "discard", "S4"), _s("C10", "follow", "S5"), _s("S3", "follow", "S5"))),
    Lesson("s3-matto", "scarto", 10, N_("The Matto in Scarto"),
           N_("The Matto may go on any trick; it never wins and always comes back to your own pile, "
              "worth 4 (S5, S6)."),
           (_s("M", "matto", "S5"), _s("D9", "follow", "S5"))),
    Lesson("s4-coach", "scarto", 27, N_("A whole deal with a coach"),
           N_("You deal a whole deal of Scarto; the coach lights a good move and says why. It plays the "
              "Matto only on a trick another player is sure to take, to save a card worth points. At the "
              "end the piles are counted in threes (S6)."),
           free=True, end_rules=("S6",)),
)

BY_ID = {lesson.id: lesson for lesson in LESSONS}
#: each game's course, in order (the games in the order of their first lesson)
COURSES = {g: tuple(x.id for x in LESSONS if x.game == g) for g in dict.fromkeys(x.game for x in LESSONS)}


def lesson_ids() -> list[str]:
    return [x.id for x in LESSONS]


def lesson_after(lesson_id: str) -> str | None:
    """The lesson that follows ``lesson_id`` (the next course's first after a
    course's last), or None after the last."""
    ids = lesson_ids()
    i = ids.index(lesson_id)
    return ids[i + 1] if i + 1 < len(ids) else None


# --- what a move meets, read from what happened ------------------------------------------


def kind_of(view: SeatView, command: Command) -> MoveKind:
    """What kind of move ``command`` is in ``view`` (the engine's led suit)."""
    if isinstance(command, Discard):
        return "discard"
    assert isinstance(command, Play)
    rules = view.rules
    p = rules.pack
    c = command.card
    if c == p.matto:
        return "matto"
    led = rules.led_suit(view.trick)
    if led < 0:
        return "lead"
    if p.suit[c] == led:
        return "follow"
    return "trump" if p.suit[c] == TRUMP_SUIT else "any"


def rule_ids(rules: Ruleset) -> dict[str, str]:
    """The rule each kind of move meets in this game."""
    return {"discard": rules.rule_discard, "play": rules.rule_play, "win": rules.rule_winner,
            "matto": rules.rule_matto}


def met_by(view: SeatView, command: Command, won: bool) -> tuple[str, ...]:
    """The rule ids a move meets: its kind's rule, and the winner's rule if the
    card took its trick (``won``, from the engine's trick winner)."""
    ids = rule_ids(view.rules)
    kind = kind_of(view, command)
    out = [ids["discard" if kind == "discard" else "matto" if kind == "matto" else "play"]]
    if won and ids["win"] not in out:
        out.append(ids["win"])
    return tuple(out)


def took(rules: Ruleset, history: Sequence[tuple[int, tuple[int, ...]]], seat: int, card: int) -> bool:
    """Whether ``card``, played by ``seat``, took its trick (the engine's winner)."""
    for leader, cards in history:
        if card in cards:
            return (leader + rules.trick_winner_index(cards)) % rules.n_seats == seat \
                and cards[(seat - leader) % rules.n_seats] == card
    return False


# --- the coach's suggestion ------------------------------------------------------------------

_COACH = EasyPlayer(slip=0.0)


def matto_now(view: SeatView) -> bool:
    """The coach's rule of thumb for the Matto: play it on a trick the other side
    is sure to take (no other legal card wins it so far, no partner plays after,
    the card winning it is not the partner's) when every other card it may play
    is worth more than 1 point; else keep it.  True too when nothing else may be
    played."""
    rules = view.rules
    p = rules.pack
    legal = view.legal_mask()
    if view.phase != PLAY or not legal >> p.matto & 1:
        return False
    others = legal & ~p.matto_mask
    if not others:
        return True
    r = reason(view, Play(view.seat, p.matto))
    if r is None or r.key != "matto_save":  # no trick begun, or another card would win it
        return False
    n = rules.n_seats
    team = rules.side[view.seat]
    winner = (view.leader + rules.trick_winner_index(view.trick)) % n
    later = [(view.seat + k) % n for k in range(1, n - len(view.trick))]
    if rules.side[winner] == team or any(rules.side[s] == team for s in later):
        return False
    return min(p.points[c] for c in mask_cards(others)) > 1


def coach_move(view: SeatView, event_index: int) -> Command:
    """The coach's suggestion: the rules of thumb without slips, the Matto
    played only by :func:`matto_now`, and among the other cards one whose
    reason the coach can say (:func:`engine.ai.reasons.reason`) where there is one."""
    if view.phase != PLAY:
        return _COACH.choose(view, view.legal(), event_index)
    p = view.rules.pack
    if matto_now(view):
        return Play(view.seat, p.matto)
    others = view.legal_mask() & ~p.matto_mask
    said = 0
    for c in mask_cards(others):
        r = reason(view, Play(view.seat, c))
        if r is not None and r.key != "keep_matto":
            said |= 1 << c
    card = kernel(view.rules).policy(possible_hands(view), view.seat, view.leader, view.trick,
                                     said or others)
    return Play(view.seat, card)


def command_of(rules: Ruleset, seat: int, step: Step) -> Command:
    cards = tuple(sorted(rules.pack.parse(c) for c in step.cards))
    if step.kind == "discard":
        return Discard(seat, cards)
    return Play(seat, cards[0])


# --- the game and its session ------------------------------------------------------------------


class LessonSession(LocalSession):
    """A lesson's game: local, no autosave, never filed as a replay."""

    def archive(self) -> Path | None:
        return None

    def close(self) -> None:
        self.game.close()


def lesson_game(lesson: Lesson) -> Game:
    rules = ruleset(lesson.game)
    return Game(lesson.seed, 1, ["human"] + ["easy"] * (rules.n_seats - 1), rules=rules)


def lesson_session(lesson: Lesson, start_at: int = 0) -> LessonSession:
    """The lesson's game, its first ``start_at`` moves made again (a lesson
    resumed: the other seats replay exactly as before), up to the player's turn."""
    game = lesson_game(lesson)
    players = ai_players(lesson)
    made = 0
    while start_at and game.legal():
        seat = game.state.turn
        if seat == 0 and made >= start_at:
            break
        view = game.view(seat)
        if seat != 0:
            game.submit(players[seat].choose(view, game.legal(), game.cursor))
            continue
        if lesson.free:
            game.submit(coach_move(view, game.cursor))
        else:
            game.submit(command_of(game.rules, 0, lesson.steps[made]))
        made += 1
    return LessonSession(game, viewer=0, human_seats=frozenset({0}), practice=False)


def ai_players(lesson: Lesson) -> dict[int, Player]:
    """The other seats: the easy level without slips (a pure function of the view)."""
    return {s: EasyPlayer(slip=0.0) for s in range(1, ruleset(lesson.game).n_seats)}


# --- the controller -----------------------------------------------------------------------------


class LessonController(TableController):
    """A lesson at the table (see the module)."""

    def __init__(self, lesson: Lesson, out: Presenter, *, executor: InlineExecutor | AIService | None = None,
                 settings: Settings | None = None, on_scene: Callable[[str], None] | None = None,
                 on_exit: Callable[[], None] | None = None, on_step: Callable[[int], None] | None = None,
                 on_progress: Callable[[str, int, bool], None] | None = None, auto_continue: bool = False,
                 start_at: int = 0, session: LessonSession | None = None,
                 on_next: Callable[[str], None] | None = None) -> None:
        self.lesson = lesson
        #: opens a lesson by its id (the "Next lesson" button), if the table can
        self.on_next = on_next
        self.next_id = lesson_after(lesson.id) if on_next is not None else None
        self.on_progress = on_progress  # (lesson id, moves made, finished): remember it
        self.step_no = 0  # the player's moves made so far
        self.expected: Command | None = None  # the move the lesson asks for now
        self.why: Reason | None = None
        self.met: list[tuple[int, tuple[str, ...]]] = []  # (step, rules met), as they happened
        self._made: list[tuple[SeatView, Command]] = []  # each move and the view it was made from
        self.on_step = on_step  # called with the step number once its prompt is up
        if session is None:
            session = lesson_session(lesson, start_at)
        super().__init__(session, ai_players(lesson), out, settings=settings, executor=executor,
                         on_scene=on_scene, on_exit=on_exit, auto_continue=auto_continue, hint_fn=None,
                         resumed=session.cursor > 1)
        self._recover()
        self.first_step = self.step_no  # the lesson's idea is said at the first move shown

    def _recover(self) -> None:
        """The moves already made in the session (a lesson resumed), from its events."""
        session = self.session
        for i in range(session.cursor):
            event = session.event(i)
            cmd: Command | None = None
            if isinstance(event, CardPlayed) and event.seat == 0:
                cmd = Play(0, event.card)
            elif isinstance(event, Discarded) and event.seat == 0:
                cmd = Discard(0, tuple(mask_cards(event.cards)))
            if cmd is not None:
                view = session.view_at(i)
                self._made.append((view, cmd))
                self.met.append((self.step_no, met_by(view, cmd, False)))
                self.step_no += 1
        self._settle_wins(session.view_at(session.cursor))

    @property
    def n_steps(self) -> int:
        """The player's moves in the lesson (a free deal: every turn of the deal)."""
        if self.lesson.free:
            rules = self.rules
            return rules.n_tricks + (1 if rules.dealer_cards() > rules.hand_cards and
                                     self.session.view_at(1).dealer == 0 else 0)
        return len(self.lesson.steps)

    @property
    def done(self) -> bool:
        """Every step made (and, for a free deal, the deal scored)."""
        if self.lesson.free:
            return self.finished
        return self.step_no >= len(self.lesson.steps)

    def rules_met(self) -> list[str]:
        """The rule ids the lesson met so far, in RULES.md order."""
        ids = {r for _s, rs in self.met for r in rs}
        if self.lesson.free and self.finished:
            ids |= set(self.lesson.end_rules)
        return sorted(ids, key=lambda r: (r[0], int(r[1:])))

    # --- the player's turn ---------------------------------------------------------------

    def _act(self) -> None:
        if self.done and not self.lesson.free:
            self._lesson_over()
            return  # the lesson is over: the table stays as it is
        super()._act()

    def _lesson_over(self) -> None:
        if self.status is None or self.status.key != "lesson_done":
            self.say(msg("lesson_done", next=self.next_id is not None), "prompt")
            if self.on_progress:
                self.on_progress(self.lesson.id, self.step_no, True)

    def _finish(self) -> None:
        super()._finish()
        if self.lesson.free and self.on_progress:
            self.on_progress(self.lesson.id, self.step_no, True)

    def _prompt(self) -> None:
        super()._prompt()
        view = self.view()
        self._settle_wins(view)
        if self.lesson.free:
            self.expected = coach_move(view, self.session.cursor)
        else:
            self.expected = command_of(self.rules, view.seat, self.lesson.steps[self.step_no])
        self.why = reason(view, self.expected)
        cards = self._cards(self.expected)
        hand = frozenset(self.hand_order())
        # the move lit: the card raised (a discard's cards left bright), the rest dimmed; in
        # a free deal the player may choose another, so only the cards no rule allows are dimmed
        dimmed = hand - self.legal_cards if self.lesson.free else hand - cards
        self.out.lay(self.position(), frozenset() if view.phase == DISCARD else cards, dimmed, True)
        self.say(self._say_step(view), "prompt")
        if self.on_step:
            self.on_step(self.step_no)

    @property
    def coach(self) -> Msg | None:
        """The coach's panel (the view draws it beside the trick): the lesson, the
        move reached, what the lesson teaches and why the move lit."""
        if self.waiting == "scoring":
            return None  # the score sheet has the table's middle to itself
        course = COURSES[self.lesson.game]
        return msg("lesson_coach", title=self.lesson.title, intro=self.lesson.intro,
                   k=course.index(self.lesson.id) + 1, n=len(course), step=self.step_no, steps=self.n_steps,
                   why=self.why if self.prompt_for == self.session.cursor else None, over=self.done,
                   intro_too=self.step_no == self.first_step and not self.done,
                   next=self.next_id is not None)

    # --- the next lesson -----------------------------------------------------------------

    @property
    def end_choices(self) -> tuple[Choice, ...]:
        """A guided lesson done: the next lesson and the menu; a free deal scored:
        the next lesson first, then the table's own choices."""
        nxt: tuple[Choice, ...] = ("next_lesson",) if self.next_id is not None else ()
        if self.lesson.free:
            base = super().end_choices
            return (*nxt, *base) if base else ()
        return (*nxt, "menu") if self.done and self.waiting != "scoring" else ()

    def choose(self, choice: Choice) -> None:
        if (choice == "next_lesson" and choice in self.end_choices
                and self.on_next is not None and self.next_id is not None):
            self.close()
            self.on_next(self.next_id)
            return
        super().choose(choice)

    def key_press(self) -> bool:
        """Enter or Space once a guided lesson is done: the next lesson."""
        if not self.lesson.free and self.done and "next_lesson" in self.end_choices:
            self.choose("next_lesson")
            return True
        return super().key_press()

    def _cards(self, cmd: Command) -> frozenset[int]:
        return frozenset(cmd.cards) if isinstance(cmd, Discard) else frozenset({cmd.card})

    def _say_step(self, view: SeatView) -> Msg:
        assert self.expected is not None
        kind = kind_of(view, self.expected)
        led = self.rules.led_suit(view.trick)
        cards = tuple(sorted(self._cards(self.expected), key=self.hand_order().index))
        return msg("lesson_step", kind=kind, suit=led, cards=cards, why=self.why, free=self.lesson.free)

    def click_card(self, card: int) -> bool:
        if not self.can_act() or self.expected is None:
            return super().click_card(card)
        view = self.view()
        if view.phase == PLAY and not self.lesson.free and view.legal_mask() >> card & 1 \
                and Play(view.seat, card) != self.expected:
            assert isinstance(self.expected, Play)
            self.say(msg("lesson_wrong", card=card, expected=self.expected.card, why=self.why),
                             "error")
            self.out.play_sound("click")
            return False
        if view.phase == DISCARD and not self.lesson.free and card not in self._cards(self.expected) \
                and card not in self.discard.selected:
            legal = any(m >> card & 1 for m in self.rules.legal_discards(view.hand))
            if legal:
                self.say(msg("lesson_wrong_discard", card=card,
                                     cards=tuple(sorted(self._cards(self.expected)))), "error")
                self.out.play_sound("click")
                return False
        return super().click_card(card)

    def submit(self, cmd: Command) -> None:
        view = self.view()
        before = self.session.cursor
        super().submit(cmd)
        if self.session.cursor > before:  # taken
            self._made.append((view, cmd))
            self.met.append((self.step_no, met_by(view, cmd, False)))
            self.step_no += 1
            self._settle_wins(self.session.view_at(self.session.cursor))
            if self.on_progress and not (self.lesson.free and self.done):
                # remembered at once: a player may leave as soon as the last move is made
                self.on_progress(self.lesson.id, self.step_no, self.done)

    def _settle_wins(self, view: SeatView) -> None:
        """Add the winner's rule to the moves whose card took its trick (known
        once the trick is complete: the engine's winner)."""
        for i, (v, cmd) in enumerate(self._made):
            if isinstance(cmd, Play) and took(self.rules, view.history, v.seat, cmd.card):
                self.met[i] = (self.met[i][0], met_by(v, cmd, True))

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._made and self.finished:
            self._settle_wins(self.session.view_at(self.session.cursor - 1))

    def auto_move(self) -> bool:
        """Make the move the lesson asks for, by clicks (autoplay, tests)."""
        if not self.can_act() or self.expected is None:
            return False
        cmd = self.expected
        if isinstance(cmd, Discard):
            for c in cmd.cards:
                if c not in self.discard.selected:
                    self.click_card(c)
            self.discard.confirm()
        else:
            assert isinstance(cmd, Play)
            self.click_card(cmd.card)
        return True


def masks_codes(rules: Ruleset, mask: int) -> list[str]:
    return [rules.pack.codes[c] for c in mask_cards(mask)]


# --- progress ------------------------------------------------------------------------------------


def progress_path() -> Path:
    return paths.home() / "lessons.json"


def load_progress() -> dict[str, Any]:
    """``{"done": [ids], "at": {id: steps made}}`` (empty when none or unreadable)."""
    try:
        data = json.loads(progress_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"done": [], "at": {}}
    done = [x for x in data.get("done", []) if x in BY_ID] if isinstance(data, dict) else []
    at = data.get("at", {}) if isinstance(data, dict) else {}
    return {"done": done, "at": {k: int(v) for k, v in at.items() if k in BY_ID and isinstance(v, int)}}


def save_progress(lesson_id: str, steps: int, done: bool) -> dict[str, Any]:
    data = load_progress()
    if done:
        if lesson_id not in data["done"]:
            data["done"].append(lesson_id)
        data["at"].pop(lesson_id, None)
    else:
        data["at"][lesson_id] = steps
    atomic_write(progress_path(), json.dumps(data, indent=1, sort_keys=True) + "\n")
    return data


def next_lesson(game: str) -> Lesson:
    """The first lesson of ``game``'s course not finished yet (else the first)."""
    done = set(load_progress()["done"])
    for lid in COURSES[game]:
        if lid not in done:
            return BY_ID[lid]
    return BY_ID[COURSES[game][0]]


__all__ = ["Lesson", "Step", "LESSONS", "BY_ID", "COURSES", "LessonController", "LessonSession",
           "lesson_ids", "lesson_after", "kind_of", "met_by", "coach_move", "matto_now", "load_progress",
           "save_progress", "next_lesson"]
