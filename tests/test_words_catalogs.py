"""Every sentence the table builds around a seat or a count, in the three catalogs:
each message worded for every seat (you and the others)
and for counts 0, 1, 2 and more, in English, French and Italian, then searched
for what pasting "You" into a sentence written for a name, or a count into a
fixed plural, leaves behind ("You's", "You cuts", "Vous remporte", "Tu prende",
"1 tricks", "1 plis", "0 plis")."""

from __future__ import annotations

import re

import pytest

from engine.ai.reasons import KEYS, Reason
from engine.cards import TRUMP_SUIT
from engine.errors import Refusal
from engine.ruleset import Outcome, ruleset
from game.common import i18n
from game.common.words import _TEMPLATES, Words, msg
from game.table.lessons import LESSONS

LANGS = ("en", "fr", "it")
COUNTS = (0, 1, 2, 3, 25)

#: what a sentence written for another seat says once "You" is put in the name's place
BROKEN = {
    "en": [r"\bYou's\b", r"\bYou (takes|cuts|deals|lays|leads|led and takes|has|is|loses|plays|wins)\b",
           r"\byou (takes|cuts|deals|lays|has|is)\b", r"\bYou share\b(?! the)"],
    "fr": [r"\bVous (remporte|coupe|donne|distribue|prend|met|a|est|réfléchit|perd|joue)\b",
           r"\bvous (remporte|coupe|donne|distribue|prend|met|a|est)\b", r"\bde Vous\b", r"\bà Vous\b",
           r"L'écart de Vous"],
    "it": [r"\bTu (prende|taglia|distribuisce|mette|ha|è|sta|perde)\b", r"\bdi Tu\b", r"\ba Tu\b",
           r"\bLo scarto di Tu\b", r"\bFa Tu\b"],
}
#: a count and the wrong form of its noun (French counts 0 and 1 in the singular)
WRONG_FORM = {
    "en": [r"\b1 (tricks|cards|trumps|deals)\b", r"\b(0|2|3|25) (trick|card|trump|deal)\b(?!s)"],
    "fr": [r"\b[01] (plis|cartes|atouts|donnes)\b", r"\b(2|3|25) (pli|carte|atout|donne)\b(?!s)"],
    "it": [r"\b1 (prese|carte|trionfi|smazzate)\b", r"\b(0|2|3|25) (presa|carta|trionfo|smazzata)\b"],
}


Texts = list[tuple[str, str]]  # (what, text)


def _seat_texts(words: Words) -> Texts:
    """The messages about a seat: the deal, the stock, the discard, a trick, the
    online seats."""
    rules = words.rules
    seats = range(rules.n_seats)
    out: Texts = []
    for d in seats:
        out.append((f"deal {d}", words.say(msg("deal", dealer=d, cutter=rules.cutter(d)))))
        for n in COUNTS:
            out.append((f"stock {d} {n}", words.say(msg("stock", seat=d, n=n))))
            for t in (-1, 0, 1, 2, 3):
                out.append((f"discarded {d} {n} {t}",
                            words.say(msg("discarded", seat=d, n=n, trumps=t))))
        out.append((f"trick {d}", words.say(msg("trick", seat=d))))
        for w in seats:
            out.append((f"led_took {d} {w}", words.say(msg("led_took", leader=d, winner=w))))
            out.append((f"last_trick {d} {w}", words.say(msg("last_trick", leader=d, winner=w))))
        if d != 0:
            out.append((f"thinking {d}", words.say(msg("thinking", seat=d))))
            for key in ("reconnecting", "seat_back", "takeover", "timeout"):  # online: other seats
                out.append((f"{key} {d}", words.say(msg(key, seat=d))))
    return out


def _count_texts(words: Words) -> Texts:
    """The counted labels, the fixed messages and the standing after each deal."""
    rules = words.rules
    out: Texts = []
    for n in COUNTS:
        out.append((f"your_discard {n}", words.say(msg("your_discard", n=n))))
        out.append((f"confirm_label {n}", words.say(msg("confirm_label", n=n))))
        out.append((f"cards_held {n}", words.cards_held(n)))
        out.append((f"hint_words {n}", words.hint_words(n + 0.6)))
        out.append((f"trumps_discarded {n}", words.trumps_discarded(n)))
        out.append((f"game_kind {n}", words.game_kind(n)))
        for side in range(rules.n_sides):
            out.append((f"pile_line {side} {n}", words.pile_line(side, 2 * n, n)))
    out += [("hint_words best", words.hint_words(0.0)), ("hint_words close", words.hint_words(0.4))]
    for key in ("your_turn", "click_to_continue", "matto", "thinking_hint", "hints", "nothing_to_undo",
                "nothing_to_redo", "connection_lost", "connection_back", "opened_elsewhere"):
        out.append((key, words.say(msg(key))))
    for why in ("unreachable", "other_program"):
        out.append((f"server_gone {why}", words.say(msg("server_gone", why=why))))
    out.append(("save_failed", words.say(msg(
        "save_failed", text="could not save the game to /x: the disk is full"))))
    totals = tuple(range(rules.n_sides))
    for deal in range(1, rules.full_game + 1):
        out.append((f"standing {deal}", words.say(msg(
            "standing", deal=deal, n_deals=rules.full_game, totals=totals, scored=deal - 1))))
    return out


def _outcome_texts(words: Words) -> Texts:
    """Who wins or loses: every set of losers among the sides."""
    out: Texts = []
    n = words.rules.n_sides
    for mask in range(1, 1 << n):
        losers = tuple(s for s in range(n) if mask >> s & 1)
        winners = tuple(s for s in range(n) if s not in losers)
        if not winners:
            continue
        oc = Outcome(winners=winners, losers=losers)
        for whole in (False, True):
            out.append((f"outcome {sorted(losers)} {whole}",
                        words.outcome(oc, list(range(n)), whole)))
    return out


def _refusal_texts(words: Words) -> Texts:
    """Refusals that name a seat (the one to play, the dealer: never the player
    refused) or a count, and what may be played instead of a refused card, named
    or counted."""
    out: Texts = []
    for seat in range(words.rules.n_seats)[1:]:
        for reason in ("out_of_turn", "not_dealer"):
            out.append((f"refusal {reason} {seat}",
                        words.refusal(Refusal("R7", reason, "", seat=seat))))
    for c in COUNTS:
        for reason in ("discard_size", "discard_trumps_max"):
            out.append((f"refusal {reason} {c}", words.refusal(Refusal("R6", reason, "", count=c))))
    for n in COUNTS[1:]:
        cards = tuple(range(n))
        for reason, suit in (("must_follow", 1), ("must_follow", TRUMP_SUIT), ("must_trump", 2)):
            out.append((f"refused {reason} {suit} {n}", words.say(msg(
                "refused", refusal=Refusal("R7", reason, "", suit=suit), card=n, instead=cards))))
    return out


def _reason_texts(words: Words) -> Texts:
    """The hint's reasons: every key, with its card, suit or cards."""
    out: Texts = []
    pack = words.rules.pack
    for key in KEYS:
        for n in (1, 2, 3):
            r = Reason(key, (("card", 0), ("cards", tuple(range(pack.n_trumps + 1, pack.n_trumps + 1 + n))),
                             ("suit", n)))
            text = words.reason(r)
            out.append((f"reason {key} {n}", text))
            out.append((f"hints {key} {n}", words.say(msg("hints", reason=r))))
    return out


def _lesson_texts(words: Words) -> Texts:
    """The lessons: every kind of move, guided and free, the coach's panel."""
    out: Texts = []
    for kind in ("lead", "follow", "trump", "any", "matto", "discard"):
        for free in (False, True):
            for n in (1, 2, 3, TRUMP_SUIT):
                out.append((f"lesson_step {kind} {free} {n}", words.say(msg(
                    "lesson_step", kind=kind, suit=n, cards=tuple(range(min(n, 3))), why=None,
                    free=free))))
    for lesson in LESSONS:
        for over in (False, True):
            out.append((f"lesson_coach {lesson.id} {over}", words.say(msg(
                "lesson_coach", title=lesson.title, intro=lesson.intro, k=1, n=4, step=0, steps=3,
                why=Reason("keep_matto"), over=over))))
    out.append(("lesson_wrong", words.say(msg("lesson_wrong", card=1, expected=2))))
    for n in (1, 2, 3):
        out.append((f"lesson_wrong_discard {n}",
                    words.say(msg("lesson_wrong_discard", card=5, cards=tuple(range(n))))))
    out.append(("lesson_done", words.say(msg("lesson_done"))))
    return out


def every_text(words: Words) -> Texts:
    """(what, text) for every message and label the table words, for every seat
    and count that can come up."""
    return (_seat_texts(words) + _count_texts(words) + _outcome_texts(words)
            + _refusal_texts(words) + _reason_texts(words) + _lesson_texts(words))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_no_sentence_pastes_you_into_a_name_or_a_count_into_a_plural(lang: str, variant: str) -> None:
    i18n.set_language(lang)
    try:
        texts = every_text(Words(ruleset(variant), 0))
    finally:
        i18n.set_language("en")
    assert len(texts) > 150
    bad = [(what, text, pat) for what, text in texts for pat in BROKEN[lang] + WRONG_FORM[lang]
           if re.search(pat, text)]
    assert not bad, bad[:8]
    assert all(text and "{" not in text and "?" not in text for _what, text in texts), \
        [t for t in texts if "{" in t[1] or "?" in t[1] or not t[1]][:5]


@pytest.mark.parametrize("lang", LANGS)
def test_messages_about_you_have_their_own_wording(lang: str) -> None:
    """The sentence about the player is not the one about another seat with the
    name swapped for "You": each has its own text in each language."""
    rules = ruleset("piedicavallo")
    w = Words(rules, 0)
    i18n.set_language(lang)
    try:
        you, east = w.name(0), w.name(1)
        cases = [("trick", {"seat": 0}, {"seat": 1}),
                 ("deal", {"dealer": 0, "cutter": 3}, {"dealer": 1, "cutter": 3}),
                 ("deal", {"dealer": 2, "cutter": 0}, {"dealer": 2, "cutter": 1}),
                 ("discarded", {"seat": 0, "n": 2, "trumps": 0}, {"seat": 1, "n": 2, "trumps": 0}),
                 ("discarded", {"seat": 0, "n": 2, "trumps": 2}, {"seat": 1, "n": 2, "trumps": 2}),
                 ("led_took", {"leader": 0, "winner": 0}, {"leader": 1, "winner": 1}),
                 ("led_took", {"leader": 0, "winner": 2}, {"leader": 1, "winner": 2}),
                 ("led_took", {"leader": 2, "winner": 0}, {"leader": 2, "winner": 1})]
        for key, mine, other in cases:
            if lang == "en" and key == "led_took":
                continue  # English past tenses agree with any subject ("You led", "East led")
            a = w.say(msg(key, **mine))
            b = w.say(msg(key, **other))
            assert a != b.replace(east, you), (lang, key, a, b)
        scarto = Words(ruleset("scarto"), 0)
        for n in (1, 3):
            a = scarto.say(msg("stock", seat=0, n=n))
            b = scarto.say(msg("stock", seat=1, n=n))
            assert a != b.replace(east, you), (lang, a)
    finally:
        i18n.set_language("en")


def test_the_checks_catch_the_texts_a_pasted_word_makes() -> None:
    """The patterns find the texts that pasting a seat or a count into a sentence
    made ("Trumps in You's discard", "1 tricks")."""
    reported = {"en": ["Trumps in You's discard: 0", "East deals; You cuts", "1 tricks", "1 cards"],
                "fr": ["Vous remporte le pli", "Vous coupe", "1 plis"],
                "it": ["Tu prende la presa", "1 prese"]}
    for lang, texts in reported.items():
        for text in texts:
            assert any(re.search(p, text) for p in BROKEN[lang] + WRONG_FORM[lang]), (lang, text)


def test_each_language_words_the_last_trick_for_you_and_for_another_seat() -> None:
    w = Words(ruleset("piedicavallo"), 0)
    want = {
        "en": ("Last trick · You led, East took it", "Last trick · Partner led, you took it"),
        "fr": ("Dernier pli · Vous avez entamé, Est l'a remporté",
               "Dernier pli · Partenaire a entamé, vous l'avez remporté"),
        "it": ("Ultima presa · Hai aperto tu, ha preso Est", "Ultima presa · Ha aperto Compagno, hai preso tu"),
    }
    try:
        for lang, (a, b) in want.items():
            i18n.set_language(lang)
            assert w.say(msg("last_trick", leader=0, winner=1)) == a
            assert w.say(msg("last_trick", leader=2, winner=0)) == b
    finally:
        i18n.set_language("en")


def test_every_template_is_worded() -> None:
    """No message key is left without its words (the list above covers them)."""
    covered = {"deal", "stock", "discarded", "trick", "led_took", "last_trick", "thinking", "your_discard",
               "confirm_label", "your_turn", "click_to_continue", "matto", "thinking_hint", "hints",
               "nothing_to_undo", "nothing_to_redo", "standing", "refused", "engine", "speed",
               "confirm_discard", "reconnecting", "seat_back", "takeover", "timeout", "connection_lost",
               "connection_back", "opened_elsewhere", "server_gone", "save_failed", "lesson_step", "lesson_coach", "lesson_wrong",
               "lesson_wrong_discard", "lesson_done"}
    assert set(_TEMPLATES) <= covered, set(_TEMPLATES) - covered


def test_the_message_keys_type_names_every_template_and_no_other() -> None:
    """``MsgKey`` (what ``msg`` accepts, so mypy refuses a misspelt key) and the
    templates are the same set: a template nobody may ask for, or a key with no
    words, fails here."""
    from typing import get_args

    from game.common.words import MsgKey

    assert set(get_args(MsgKey)) == set(_TEMPLATES)


@pytest.mark.parametrize("variant", ["piedicavallo", "scarto"])
def test_french_card_names_elide_de_before_a_vowel(variant: str) -> None:
    from game.common.words import card_name

    pack = ruleset(variant).pack
    try:
        i18n.set_language("fr")
        names = [card_name(pack, c) for c in range(len(pack.codes))]
        i18n.set_language("it")
        italian = [card_name(pack, c) for c in range(len(pack.codes))]
    finally:
        i18n.set_language("en")
    assert not [n for n in names if re.search(r"\bde [AEIOUÉaeioué]", n)], names
    assert any(n.endswith("d'Épées") for n in names)  # the swords begin with a vowel
    assert any(n.endswith("de Coupes") for n in names)  # the cups do not
    assert not any("d'" in n for n in italian)
