"""Regression tests for the review findings: reader robustness, resume from a
log cut between a card and its trick, and a view seed that must not reveal the deal."""

from __future__ import annotations

import json
import random

import pytest

from engine.game import Game
from engine.replay import ReplayError, format_replay, parse_replay
from engine.state import DEAL, State, TrickTaken, decide, next_deal
from engine.variants import PIEDICAVALLO

HEAD = json.dumps({"format": "tarocchi-replay", "version": 1, "variant": "piedicavallo"})


def _finished(seed: int, n_deals: int = 1) -> Game:
    rnd = random.Random(seed)
    g = Game(seed, n_deals, rules=PIEDICAVALLO)
    while g.legal():
        g.submit(rnd.choice(g.legal()))
    return g


@pytest.mark.parametrize(
    "text",
    [
        HEAD + '\n{"type": "play", "seat": ' + "1" * 5000 + ', "card": "SK"}\n',  # huge int
        '{"format": "tarocchi-replay", "version": 1, "variant": "piedicavallo", "seed": '
        + "9" * 5000
        + "}\n",  # a huge int in an optional header key
        HEAD + "\n" + "[" * 100_000 + "\n",  # deeply nested JSON
    ],
    ids=["huge int in an event", "huge int in the header", "deep nesting"],
)
def test_any_file_gives_a_replay_error_never_a_traceback(text: str) -> None:
    """docs/REPLAY-FORMAT.md: bad input is refused with a message naming the line."""
    try:
        parse_replay(text)
    except ReplayError as exc:
        assert exc.line in (1, 2)


def test_nan_and_infinity_are_bad_json() -> None:
    """docs/REPLAY-FORMAT.md: 'a reader must refuse ... bad JSON'; NaN is not JSON (RFC 8259)."""
    g = _finished(1)
    lines = format_replay(g.header, g.events).splitlines()
    lines[2] = lines[2][:-1] + ', "x": NaN}'
    with pytest.raises(ReplayError) as exc:
        parse_replay("\n".join(lines))
    assert exc.value.line == 3


@pytest.mark.parametrize("cut", ["after the fourth card", "before the score"])
def test_resume_from_a_file_cut_between_a_card_and_its_trick(cut: str) -> None:
    """docs/REPLAY-FORMAT.md: 'A file may stop anywhere ... a reader then rebuilds the
    position reached'; the autosave writes the play and trick lines one by one, so a
    crash between them leaves such a file.  Resuming it must give a playable game."""
    g = _finished(3)
    if cut == "after the fourth card":
        k = next(i for i, e in enumerate(g.events) if isinstance(e, TrickTaken))
    else:
        k = len(g.events) - 1
    resumed = Game.from_replay(parse_replay(format_replay(g.header, g.events[:k])))
    legal = resumed.legal()
    for cmd in legal:  # every listed command is accepted
        decide(resumed.state, cmd)
    rnd = random.Random(0)
    while resumed.legal():
        resumed.submit(rnd.choice(resumed.legal()))
    assert len(resumed.state.scores) == 1  # the deal gets scored


def test_a_seat_view_does_not_reveal_the_other_hands() -> None:
    """engine/view.py: 'What one seat may know'.  The view carries the game seed,
    and the seed deals every hand."""
    g = Game(2026, 1, rules=PIEDICAVALLO)
    v = g.view((g.state.dealer + 1) % 4)
    guessed = next_deal(State(seed=v.seed, n_deals=v.n_deals, phase=DEAL, rules=PIEDICAVALLO))
    assert guessed.hands != g.state.hands


def test_refusal_names_the_event_on_the_line() -> None:
    """docs/REPLAY-FORMAT.md: 'The message names the line number, the event and the rule
    broken'.  A play where the trick line was due is reported as 'a trick event is
    due here (R8)': the play on that line is not named."""
    g = _finished(4)
    objs = [json.loads(x) for x in format_replay(g.header, g.events).splitlines()]
    i = next(k for k, o in enumerate(objs) if o.get("type") == "trick")
    del objs[i]
    with pytest.raises(ReplayError) as exc:
        parse_replay("".join(json.dumps(o) + "\n" for o in objs))
    assert exc.value.line == i + 1 and "play" in str(exc.value)
