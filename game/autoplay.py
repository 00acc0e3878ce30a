"""``tarocchi autoplay``: the real table, every frame rendered, all four seats AI.

For tests, bug reports and benchmarks.  The game is logged to a new file of
its own, ``<data folder>/autoplay/<time>.jsonl`` (printed as ``replay``); the
user's autosave and replays are never touched.  Frame time is measured from the start
of ``on_update`` to the end of the GL work (``flip``, then ``ctx.finish``), one
frame per 1/60 s of game time.  Frames on which a screenshot is
read back (``--screenshots``, about 10 ms each on llvmpipe) are left out of the
figures.  Each scene's screenshot is taken once the scene's opening animation
has settled (the deal mid-flight, so the packets can be seen); ``trick`` is the
first trick complete, with the card that takes it lifted and marked.

Frames run back to back, each advancing the game by 1/60 s, except while an AI
is still thinking (its answer is worked out in wall-clock time, in the AI
process): then the loop waits out the rest of each 1/60 s as a 60 Hz window
would.  Without that wait the count of frames, most of them with nothing to
redraw, would grow with how fast a frame is drawn.  ``frame_ms_*`` count every
frame, those with nothing to redraw too; ``drawn_ms_p95`` counts only the
frames on which something was drawn (in ``full`` redraw mode, every frame).
``redraw`` names how frames are drawn (``game.common.damage.redraw_mode``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import arcade

    from engine.game import Game
    from engine.ruleset import Ruleset
    from game.table.lessons import Lesson
    from game.table.table_view import TableView

#: what ``--json`` prints
Figures = dict[str, Any]


class AutoplayFailed(Exception):
    """A run that cannot go on (a full disk, a folder gone): ``str()`` is one line
    naming the file and the error.  The log is left ending at its last whole
    line, and a log that holds no move is removed (no empty file is left)."""


def _discard_unplayed(path: Path) -> None:
    """Remove an autoplay log that holds no move (empty, or the header alone): it
    was claimed for this run, which could not write its game."""
    try:
        with open(path, "rb") as f:
            data = f.read(64 * 1024)
    except OSError:
        return
    if data.count(b"\n") <= 1:
        try:
            path.unlink()
        except OSError:
            pass


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def run_autoplay(deals: int = 1, seed: int = 1, players: list[str] | None = None,
                 speed: float = 2.0, screenshots: str | None = None,
                 max_seconds: float = 600.0, window: arcade.Window | None = None,
                 size: tuple[int, int] = (1280, 720), variant: str = "piedicavallo",
                 language: str | None = None) -> Figures:
    """Play at the real table; ``language``: the table's (default: the one in Settings)."""
    from game.app import prepare_environment

    prepare_environment()

    from engine.files import SaveFailed
    from engine.ruleset import ruleset
    from game.common import i18n, textures
    from game.common.settings import Settings

    i18n.set_language(language or Settings.load().language)
    rules = ruleset(variant)
    textures.start_loading()
    if not players:
        from engine.players import level_names

        players = ["medium" if "medium" in level_names() else "random"] * rules.n_seats
    shots = _Shots(_shots_folder(screenshots), speed)
    game, log_path = _new_logged_game(rules, players, deals, seed, variant)
    window, own_window = _hidden_window(window, size, "Tarocchi autoplay")
    view = _autoplay_view(window, game, speed, shots)
    try:
        return _play(view, window, game, own_window, shots, max_seconds)
    except SaveFailed as exc:  # the log ends at its last whole move (Game cut it back)
        failed: Exception = exc
    except OSError as exc:  # a screenshot, or the log's last fsync and filing
        failed = exc
    _give_up(view, window, own_window, log_path, failed)


def _shots_folder(screenshots: str | None) -> Path | None:
    """The screenshot folder, made (its parent must exist: the option is checked)."""
    from engine.files import describe_os_error

    shots_dir = Path(screenshots) if screenshots else None
    if shots_dir:
        try:
            shots_dir.mkdir(exist_ok=True)
        except OSError as exc:
            raise AutoplayFailed(f"cannot make the screenshot folder {shots_dir}: "
                                 f"{describe_os_error(exc)}") from exc
    return shots_dir


def _new_logged_game(rules: Ruleset, players: list[str], deals: int, seed: int,
                     variant: str) -> tuple[Game, Path]:
    """The game, logged to a new file of its own (autoplay/<time>.jsonl): the user's
    autosave and replays are never touched.  ``(game, log_path)``."""
    from engine.files import describe_os_error
    from game.table import session

    try:
        log_path = session.autoplay_log_path()
    except OSError as exc:
        raise AutoplayFailed(f"cannot make a log in {paths_autoplay_dir()}: {describe_os_error(exc)}") \
            from exc
    try:
        game = session.new_game(partner=players[0], opponents=players[1],
                                match=deals == rules.full_game > 1, seed=seed, human=False,
                                players=players, variant=variant, autosave=log_path)
    except OSError as exc:
        _discard_unplayed(log_path)
        raise AutoplayFailed(f"could not save the game to {log_path}: {describe_os_error(exc)}") from exc
    return game, log_path


def _hidden_window(window: arcade.Window | None, size: tuple[int, int],
                   title: str) -> tuple[arcade.Window, bool]:
    """``window``, or a hidden game window of ``size`` made for this run: ``(window, own)``."""
    if window is not None:
        return window, False
    from game.app import window_class

    return window_class()(size[0], size[1], title, visible=False, antialiasing=False, vsync=False), True


class _Shots:
    """Which scene is on, and the screenshots still wanted: scene -> frames to
    wait (its opening animation settled) before the picture is taken."""

    def __init__(self, folder: Path | None, speed: float) -> None:
        self.folder = folder
        self.speed = speed
        self.wanted: dict[str, int] = {}
        self.taken: list[str] = []
        self.scene_times: dict[str, list[float]] = {}
        self.scene = ""

    def on_scene(self, name: str) -> None:
        from game.common.constants import T_COUNT

        self.scene = name
        speed = self.speed
        if self.folder and name not in self.taken and name not in self.wanted:
            self.wanted[name] = {"deal": int(150 / speed), "discard": 10, "exchange": 3,
                                 "play": int(100 / speed),
                                 "scoring": int(60 * (T_COUNT + 0.4) / speed)}.get(name, 30)

    def take_due(self, view: TableView) -> bool:
        """Count a frame down for each wanted picture; take those due.  Whether one was."""
        import arcade

        shot = False
        for name in list(self.wanted):
            self.wanted[name] -= 1
            if self.wanted[name] <= 0:
                del self.wanted[name]
                self.taken.append(name)
                if self.folder:
                    arcade.get_image().save(self.folder / f"{name}.png")
                    shot = True
        if self.folder and "trick" not in self.taken and "trick" not in self.wanted \
                and "win" in view.table.trick_marks.values():
            # the first trick complete, its winning card lifted and marked
            self.wanted["trick"] = max(2, int(24 / self.speed))
        return shot

    def files(self) -> list[str]:
        return [str(self.folder / f"{n}.png") for n in self.taken] if self.folder else []


def _autoplay_view(window: arcade.Window, game: Game, speed: float, shots: _Shots) -> TableView:
    """The table with an AI in every seat, South's hand face up, shown on ``window``."""
    from game.common.settings import Settings
    from game.common.sound import SoundBoard
    from game.table import session
    from game.table.table_view import TableView

    settings = Settings(speed=speed, auto_advance=True, sound=False)
    view = TableView(window, game, session.ai_players(game), human_seats=frozenset(),
                     face_up_seats=frozenset({0}), settings=settings, sound=SoundBoard(False),
                     auto_continue=True, on_scene=shots.on_scene)
    window.show_view(view)
    return view


def _give_up(view: TableView, window: arcade.Window, own_window: bool, log_path: Path,
             failed: Exception) -> NoReturn:
    """A write failed: close what is open, drop a log with no move, raise the one line."""
    from engine.files import SaveFailed, describe_os_error

    try:
        view.close()
    except OSError:
        pass
    if own_window:
        window.close()
    _discard_unplayed(log_path)
    if isinstance(failed, SaveFailed):
        raise AutoplayFailed(str(failed)) from failed
    assert isinstance(failed, OSError)  # run_autoplay hands on a SaveFailed or an OSError
    where = failed.filename
    raise AutoplayFailed(f"could not write {where or 'a file'}: {describe_os_error(failed)}") from failed


def paths_autoplay_dir() -> Path:
    from game.common import paths

    return paths.home() / "autoplay"


def _play(view: TableView, window: arcade.Window, game: Game, own_window: bool, shots: _Shots,
          max_seconds: float) -> Figures:
    frame_ms: list[float] = []
    drawn_ms: list[float] = []
    dt = 1 / 60
    t_end = time.perf_counter() + max_seconds
    frames = 0
    while True:
        t0 = time.perf_counter()
        view.on_update(dt)
        view.on_draw()
        window.flip()
        window.ctx.finish()  # count the GL work of this frame, not just its submission
        t1 = time.perf_counter()
        frames += 1
        if not shots.take_due(view):
            ms = (t1 - t0) * 1000
            frame_ms.append(ms)
            if view.last_damage != []:
                drawn_ms.append(ms)
            shots.scene_times.setdefault(shots.scene or "start", []).append(ms)
        if game.save_error is not None:  # a failed write the table caught: the run stops
            raise game.save_error
        if view.ctl.ai.pending is not None and not view.ctl.ai.pending[0].done():
            time.sleep(max(0.0, t0 + dt - time.perf_counter()))  # a 60 Hz window while the AI thinks
        if view.ctl.finished and view.score_panel is None and not view.table.busy:
            break
        if view.ctl.finished and shots.folder and "scoring" in shots.wanted:
            continue
        if time.perf_counter() > t_end:
            raise SystemExit(f"autoplay: not finished after {max_seconds:.0f} s")
    view.close()
    __import__("game.common.record", fromlist=["note_safely"]).note_safely(view.ctl.replay_path)  # your record
    out = _figures(view, window, game, shots, frames, frame_ms, drawn_ms)
    if own_window:
        window.close()
    return out


def _figures(view: TableView, window: arcade.Window, game: Game, shots: _Shots, frames: int,
             frame_ms: list[float], drawn_ms: list[float]) -> Figures:
    """What ``--json`` prints: the frame times, the replay, the screenshots, the points."""
    from game.common import damage

    return {
        "frames": frames,
        "frame_ms_p50": round(statistics.median(frame_ms), 3),
        "frame_ms_p95": round(percentile(frame_ms, 0.95), 3),
        "drawn_frames": len(drawn_ms),
        "drawn_ms_p95": round(percentile(drawn_ms, 0.95), 3),
        "redraw": damage.redraw_mode(window),
        "replay": str(view.ctl.replay_path),
        "scenes": {k: {"frames": len(v), "p95": round(percentile(v, 0.95), 3)}
                   for k, v in shots.scene_times.items()},
        "screenshots": shots.files(),
        "points": [list(s) for s in game.state.scores],
    }


def cmd_autoplay(args: argparse.Namespace) -> int:
    from engine.ruleset import ruleset

    if getattr(args, "lesson", None):
        return cmd_lesson(args)

    variant = getattr(args, "variant", "piedicavallo")
    rules = ruleset(variant)
    if args.deals not in rules.game_lengths:
        lengths = " or ".join(map(str, rules.game_lengths))
        print(f"--deals: a game of {rules.title} is {lengths} deals", file=sys.stderr)
        return 2
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    if players is not None and len(players) != rules.n_seats:
        example = ",".join((["medium", "easy"] * rules.n_seats)[: rules.n_seats])
        print(f"--players needs {rules.n_seats} levels, e.g. {example}", file=sys.stderr)
        return 2
    from engine.players import level_names

    if players:
        known = level_names()
        bad = [p for p in players if p not in known]
        if bad:
            print(f"unknown level(s) {', '.join(bad)}; choose from {', '.join(known)}", file=sys.stderr)
            return 2
    from game.common import paths

    try:
        paths.check_home()
    except paths.DataFolderError as exc:
        print(f"tarocchi: {exc}", file=sys.stderr)
        return 2
    try:
        out = run_autoplay(deals=args.deals, seed=args.seed, players=players, speed=args.speed,
                           screenshots=args.screenshots, variant=variant,
                           language=getattr(args, "language", None))
    except AutoplayFailed as exc:
        print(f"tarocchi autoplay: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['frames']} frames, p50 {out['frame_ms_p50']} ms, p95 {out['frame_ms_p95']} ms")
        print(f"replay: {out['replay']}")
        for s in out["screenshots"]:
            print(f"screenshot: {s}")
    return 0


def run_lesson(lesson_id: str, language: str | None = None, screenshots: str | None = None,
               speed: float = 4.0, window: arcade.Window | None = None, size: tuple[int, int] = (1280, 720),
               max_seconds: float = 600.0) -> Figures:
    """Play a lesson (``game.table.lessons``) at the real table by its own prepared
    moves, clicked as a player would; a screenshot of every move's prompt (the
    card lit, what to do and why) and of the end."""
    from game.app import prepare_environment

    prepare_environment()
    from game.common import i18n, textures
    from game.common.settings import Settings
    from game.table import lessons

    lesson = lessons.BY_ID[lesson_id]
    i18n.set_language(language or Settings.load().language)
    window, own_window = _hidden_window(window, size, "Tarocchi lesson")
    textures.start_loading()
    shots_dir = Path(screenshots) if screenshots else None
    if shots_dir:
        shots_dir.mkdir(parents=True, exist_ok=True)
    view = _lesson_view(window, lesson, speed)
    shots: list[str] = []

    def shoot(name: str) -> None:
        import arcade

        view.on_draw()
        if shots_dir:
            path = shots_dir / f"{lesson.id}-{name}.png"
            arcade.get_image().save(path)
            shots.append(str(path))

    frames = _play_lesson(view, lesson, speed, max_seconds, shoot)
    ctl = view.ctl
    assert isinstance(ctl, lessons.LessonController)
    out = {
        "lesson": lesson.id,
        "game": lesson.game,
        "language": i18n.language(),
        "steps": ctl.step_no,
        "rules_met": ctl.rules_met(),
        "met_by_step": [list(rs) for _i, rs in ctl.met],
        "frames": frames,
        "screenshots": shots,
    }
    view.close()
    if own_window:
        window.close()
    return out


def _lesson_view(window: arcade.Window, lesson: Lesson, speed: float) -> TableView:
    """The table on the lesson's session, its AI answering inline, shown on ``window``."""
    from game.common.settings import Settings
    from game.common.sound import SoundBoard
    from game.table import lessons
    from game.table.table_controller import InlineExecutor
    from game.table.table_view import TableView

    settings = Settings(speed=speed, auto_advance=True, sound=False)
    session = lessons.lesson_session(lesson)

    def controller(view: TableView) -> lessons.LessonController:
        return lessons.LessonController(lesson, view, executor=InlineExecutor(), settings=settings,
                                        auto_continue=True, session=session)

    view = TableView(window, session, lessons.ai_players(lesson), settings=settings, sound=SoundBoard(False),
                     auto_continue=True, controller=controller)
    window.show_view(view)
    return view


def _play_lesson(view: TableView, lesson: Lesson, speed: float, max_seconds: float,
                 shoot: Callable[[str], None]) -> int:
    """Frames until the lesson is done, each move made by the lesson's own answer
    after a picture of its prompt; the scoring and the end pictured too.  The
    number of frames."""
    from game.common.constants import T_COUNT
    from game.table.lessons import LessonController

    ctl = view.ctl
    assert isinstance(ctl, LessonController)
    frames = 0
    shot_at = -1
    scoring_at = -1
    t_end = time.perf_counter() + max_seconds
    while True:
        view.on_update(1 / 60)
        view.on_draw()
        frames += 1
        if ctl.can_act() and not view.table.busy:
            if shot_at != ctl.step_no:  # once a move: a discard takes a few frames of clicks
                shot_at = ctl.step_no
                for _ in range(3):  # the lit card and the texts settled
                    view.on_update(1 / 60)
                shoot(f"{ctl.step_no + 1:02d}")
            ctl.auto_move()
        if ctl.scene == "scoring" and scoring_at < 0:
            scoring_at = frames + int(60 * (T_COUNT + 0.4) / speed)  # the sheet counted up
        if frames == scoring_at:
            shoot("scoring")
        if ctl.done and (not lesson.free or ctl.finished) and not view.table.busy \
                and (scoring_at < 0 or frames > scoring_at):
            for _ in range(30):
                view.on_update(1 / 60)
            shoot("end")
            return frames
        if time.perf_counter() > t_end:
            raise SystemExit(f"autoplay: lesson {lesson.id} not finished after {max_seconds:.0f} s")


def cmd_lesson(args: argparse.Namespace) -> int:
    """``tarocchi autoplay --lesson LESSON|list``."""
    from game.table import lessons

    if args.lesson == "list":
        for lid in lessons.lesson_ids():
            print(lid)
        return 0
    if args.lesson not in lessons.BY_ID:
        print(f"unknown lesson {args.lesson!r}; `--lesson list` lists them", file=sys.stderr)
        return 2
    out = run_lesson(args.lesson, language=getattr(args, "language", None), screenshots=args.screenshots)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['lesson']}: {out['steps']} moves, rules met {' '.join(out['rules_met'])}")
        for s in out["screenshots"]:
            print(f"screenshot: {s}")
    return 0
