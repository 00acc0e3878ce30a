"""How the table words what the engine decides, in the player's language (no arcade).

Messages are data: a :class:`Msg` is a key and its arguments (seats by number,
cards by int, the engine's :class:`~engine.errors.Refusal` as it came), and
:class:`Words` turns one into text when it is shown.  So the controller that
decides what to say never builds a sentence, and every language words each
case itself:

* a message about the player has its own text, apart from one about another
  seat ("You take the trick" / "East takes the trick"; "Vous remportez le pli"
  / "Est remporte le pli"), chosen by the seat, not by pasting "You" into a
  sentence written for a name;
* anything counted goes through ``ngettext`` ("1 trick", "2 tricks"; French
  "1 pli", "0 pli", "2 plis");
* a refusal is worded from its reason key and its cards, suit or count, in
  plain words ("you must follow Cups"); its rule id goes to a tooltip at most
  (:meth:`Words.refusal_rule`): no English sentence of the engine is parsed.

Templates are tables of small functions, one per message key, rather than
branches: a new message is a new entry, read on its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Literal, NamedTuple

from engine.cards import TRUMP_SUIT, Pack
from engine.errors import Refusal
from engine.ruleset import Outcome, Ruleset
from game.common.i18n import N_, _, language, ngettext

N_("South"), N_("East"), N_("North"), N_("West")
N_("Swords"), N_("Batons"), N_("Cups"), N_("Coins"), N_("Trumps")
N_("King"), N_("Queen"), N_("Knight"), N_("Jack"), N_("Ace")
_SUIT_WORDS = ("Swords", "Batons", "Cups", "Coins", "Trumps")
_RANK_WORDS = {"K": "King", "Q": "Queen", "N": "Knight", "J": "Jack", "1": "Ace"}


#: every message the table says, by its template's key (one entry of ``_TEMPLATES`` each)
MsgKey = Literal[
    "deal", "stock", "discarded", "trick", "thinking", "reconnecting", "seat_back", "connection_lost",
    "connection_back", "opened_elsewhere", "server_gone", "save_failed", "takeover", "timeout", "your_turn", "your_discard",
    "confirm_discard", "confirm_label", "click_to_continue", "matto", "refused", "engine", "thinking_hint",
    "hints", "speed", "nothing_to_undo", "nothing_to_redo", "led_took", "standing", "last_trick",
    "lesson_step", "lesson_coach", "lesson_wrong", "lesson_wrong_discard", "lesson_done",
]
#: the kinds of a lesson's move, each worded on its own ("lesson_step"): ``any`` is a
#: card of no suit led and no trump
MoveKind = Literal["lead", "follow", "trump", "any", "matto", "discard"]


class Msg(NamedTuple):
    """A message as data: ``key`` names its template (a :data:`MsgKey`; or, inside a
    hint, one of :mod:`engine.ai.reasons`' keys), ``args`` its values."""

    key: str
    args: tuple[tuple[str, object], ...] = ()

    def get(self, name: str, default: object = None) -> object:
        return dict(self.args).get(name, default)

    def number(self, name: str, default: int = 0) -> int:
        """An argument that is a whole number (a count, a seat, a card)."""
        v = self.get(name, default)
        if not isinstance(v, int | float | str):
            raise TypeError(f"message {self.key!r}: {name} is not a number: {v!r}")
        return int(v)

    def numbers(self, name: str) -> tuple[int, ...]:
        """An argument that is a sequence of whole numbers (cards, totals); none: ()."""
        v = self.get(name) or ()
        if not isinstance(v, Iterable):
            raise TypeError(f"message {self.key!r}: {name} is not a sequence: {v!r}")
        return tuple(int(x) for x in v)


def msg(key: MsgKey, **args: object) -> Msg:
    return Msg(key, tuple(sorted(args.items())))


# --- cards ---------------------------------------------------------------------------


def card_name(pack: Pack, card: int) -> str:
    """A card's long name in the current language ("trump 21", "King of Cups")."""
    code = pack.codes[card]
    if card == pack.matto:
        return _("the Matto")
    if pack.suit[card] == TRUMP_SUIT:
        return _("trump {n}").format(n=code[1:])
    rank = code[1:]
    word = _RANK_WORDS.get(rank)
    name = _("{rank} of {suit}").format(rank=_(word) if word else rank,
                                        suit=_(_SUIT_WORDS[pack.suit[card]]))
    if language() == "fr":  # "Cavalier d'Épées", as French says it, not "de Épées"
        name = _FR_ELISION.sub("d'", name)
    return name


_FR_ELISION = re.compile(r"\bde (?=[AEIOUYÉÈÊaeiouyéèê])")


def and_list(items: Sequence[str]) -> str:
    """Words one after another: "A", "A and B", "A, B and C" ("" for none)."""
    if len(items) <= 1:
        return "".join(items)
    return _("{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def card_list(pack: Pack, cards: Sequence[int]) -> str:
    """Cards named one after another: "A", "A and B", "A, B and C"."""
    return and_list([card_name(pack, c) for c in cards])


#: the letters the courts' corners show (Re, Donna, Cavallo, Fante), as on the cards
COURT_LETTERS = {"K": "R", "Q": "D", "N": "C", "J": "F"}
_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def card_index(pack: Pack, card: int) -> str:
    """What the card's corner shows where it is not the name's own figure: a
    court's Italian letter (R, D, C, F), the Roman numeral of a pip of Swords or
    Batons; "" for the others (trumps, Cups and Coins show their number)."""
    code = pack.codes[card]
    s = pack.suit[card]
    if s == TRUMP_SUIT or card == pack.matto:
        return ""
    rank = code[1:]
    if rank in COURT_LETTERS:
        return COURT_LETTERS[rank]
    if code[0] in "SB" and rank.isdigit() and 0 < int(rank) < len(_ROMAN):
        return _ROMAN[int(rank)]
    return ""


def card_label(pack: Pack, card: int) -> str:
    """A card named for someone learning the pack, with its points and, where the
    corner shows a letter or a numeral, that too: "Knight of Coins (C), 3 points"."""
    name = card_name(pack, card)
    name = name[:1].upper() + name[1:]
    index = card_index(pack, card)
    if index:
        name = _("{name} ({index})").format(name=name, index=index)
    n = pack.points[card]
    return _("{card}, {points}").format(card=name, points=ngettext("{n} point", "{n} points", n).format(n=n))


def cards_from_codes(pack: Pack, codes: str | Iterable[str]) -> str:
    """Cards given by their codes ("S7 SJ", or a sequence of codes) named in words."""
    listed = codes.split() if isinstance(codes, str) else list(codes)
    cards = [pack.by_code[c] for c in listed if c in pack.by_code]
    return card_list(pack, cards) if cards else " ".join(listed)


def suit_name(suit: int) -> str:
    return _(_SUIT_WORDS[suit]) if 0 <= suit < len(_SUIT_WORDS) else "?"


# --- refusals ------------------------------------------------------------------------

_Refuser = Callable[["Words", Refusal], str]


def _never_discard(w: Words, r: Refusal) -> str:
    cards = card_list(w.pack, r.cards)
    if r.rule == "S4":
        return _("{cards}: trump 20, Kings and the Matto may not be laid aside").format(cards=cards)
    return _("{cards}: never a King, trump 1, trump 21 or the Matto").format(cards=cards)


_REFUSALS: dict[str, _Refuser] = {
    "not_in_hand": lambda w, r: _("{card} is not in your hand").format(card=card_list(w.pack, r.cards)),
    "out_of_turn": lambda w, r: _("it is not your turn: {name} is to play").format(name=w.name(r.seat)),
    "no_play_due": lambda w, r: _("no card is due now"),
    "must_follow": lambda w, r: _("trumps were led: you must play a trump") if r.suit == TRUMP_SUIT
    else _("you must follow {suit}").format(suit=suit_name(r.suit)),
    "must_trump": lambda w, r: _("you have no {suit}, so you must play a trump").format(
        suit=suit_name(r.suit)),
    "discard_size": lambda w, r: ngettext("the discard is {n} card", "the discard is {n} cards",
                                          r.count).format(n=r.count),
    "discard_not_held": lambda w, r: _("{card} is not in your hand").format(card=card_list(w.pack, r.cards)),
    "never_discard": _never_discard,
    "discard_trump": lambda w, r: _(
        "a trump may be discarded only with no other choice, or to keep no trump at all"),
    "discard_trumps_max": lambda w, r: ngettext(
        "this hand may discard {n} trump at most", "this hand may discard {n} trumps at most",
        r.count).format(n=r.count),
    "trump1_with_trumps": lambda w, r: _(
        "trump 1 may be laid aside only by a dealer with no other trump and no Matto"),
    "not_dealer": lambda w, r: _("only the dealer lays cards aside: {name} deals").format(name=w.name(r.seat)),
    "no_discard_due": lambda w, r: _("no discard is due now"),
    "discard_together": lambda w, r: _("{card} cannot be laid aside with the cards already chosen").format(
        card=card_list(w.pack, r.cards)) if r.cards else _("not with the cards already chosen"),
}


# --- messages ------------------------------------------------------------------------

_Template = Callable[["Words", Msg], str]


def _deal(w: Words, m: Msg) -> str:
    dealer, cutter = m.get("dealer"), m.get("cutter")
    if w.is_you(dealer):
        return _("You deal; {cutter} cuts").format(cutter=w.name(cutter))
    if w.is_you(cutter):
        return _("{dealer} deals; you cut").format(dealer=w.name(dealer))
    return _("{dealer} deals; {cutter} cuts").format(dealer=w.name(dealer), cutter=w.name(cutter))


def _stock(w: Words, m: Msg) -> str:
    n = m.number("n")
    if w.is_you(m.get("seat")):
        return ngettext("You take the stock: {n} card", "You take the stock: {n} cards", n).format(n=n)
    return ngettext("{name} takes the stock: {n} card", "{name} takes the stock: {n} cards", n).format(
        name=w.name(m.get("seat")), n=n)


def _discarded(w: Words, m: Msg) -> str:
    """The discard as the others learn of it: its trump count where it is announced
    (R6), else only that the dealer laid its cards aside (S4)."""
    seat, n, trumps = m.get("seat"), m.number("n"), m.number("trumps", -1)
    you = w.is_you(seat)
    if trumps < 0:
        if you:
            return ngettext("You lay {n} card aside", "You lay {n} cards aside", n).format(n=n)
        return ngettext("{name} lays {n} card aside", "{name} lays {n} cards aside", n).format(
            name=w.name(seat), n=n)
    if trumps == 0:
        return _("Your discard holds no trump") if you else _("{name}'s discard holds no trump").format(
            name=w.name(seat))
    if you:
        return ngettext("Your discard holds {n} trump", "Your discard holds {n} trumps", trumps).format(
            n=trumps)
    return ngettext("{name}'s discard holds {n} trump", "{name}'s discard holds {n} trumps", trumps).format(
        name=w.name(seat), n=trumps)


def _trick(w: Words, m: Msg) -> str:
    seat = m.get("seat")
    return _("You take the trick") if w.is_you(seat) else _("{name} takes the trick").format(name=w.name(seat))


def _led_took(w: Words, m: Msg) -> str:
    """Who led a trick and who took it ("You led, East took it")."""
    leader, winner = m.get("leader"), m.get("winner")
    if w.is_you(leader):
        if w.is_you(winner):
            return _("You led and took it")
        return _("You led, {winner} took it").format(winner=w.name(winner))
    if leader == winner:
        return _("{leader} led and took it").format(leader=w.name(leader))
    if w.is_you(winner):
        return _("{leader} led, you took it").format(leader=w.name(leader))
    return _("{leader} led, {winner} took it").format(leader=w.name(leader), winner=w.name(winner))


def _last_trick(w: Words, m: Msg) -> str:
    """The last trick's title: "Last trick · You led, East took it"."""
    return _("Last trick · {who}").format(who=_led_took(w, m))


def _your_discard(w: Words, m: Msg) -> str:
    n = m.number("n")
    if w.rules.stock_cards:
        return ngettext("You took the stock: choose {n} card to lay aside",
                        "You took the stock: choose {n} cards to lay aside", n).format(n=n)
    return ngettext("You deal: choose {n} card to discard", "You deal: choose {n} cards to discard",
                    n).format(n=n)


def _confirm_discard(w: Words, m: Msg) -> str:
    cards = card_list(w.pack, m.numbers("cards"))
    if w.rules.stock_cards:
        return _("Lay {cards} aside? Press Enter or the button").format(cards=cards)
    return _("Discard {cards}? Press Enter or the button").format(cards=cards)


def server_gone(why: str) -> str:
    """Why an online table stopped: its server is gone (``why``: ``other_program``
    when another program answers at its address now, else nothing answers)."""
    if why == "other_program":
        return _("The Tarocchi server is gone: another program answers at its address now. "
                 "The game cannot go on: Esc for the menu")
    return _("The Tarocchi server no longer answers (tried for a minute). The game cannot go on: "
             "Esc for the menu")


def _matto(w: Words, m: Msg) -> str:
    if w.rules.n_sides < w.rules.n_seats:
        return _("The Matto goes to its own team's pile")
    return _("The Matto goes to its own player's pile")


#: a refusal names at most this many cards to play instead, else counts them
MAX_NAMED = 3


def _instead(w: Words, r: Refusal, cards: tuple[int, ...]) -> str:
    """A refusal of R7/S5 with what may be played instead (the engine's legal
    cards): "you must follow Batons: you hold 7 of Batons and Knight of Batons"."""
    n = len(cards)
    if r.reason == "must_follow" and r.suit == TRUMP_SUIT:
        if n > MAX_NAMED:
            return ngettext("trumps were led, you must play a trump: play the {n} card lit up",
                            "trumps were led, you must play a trump: play one of the {n} cards lit up",
                            n).format(n=n)
        return _("trumps were led, you must play a trump: you hold {cards}").format(cards=card_list(w.pack, cards))
    suit = suit_name(r.suit)
    if r.reason == "must_follow":
        if n > MAX_NAMED:
            return ngettext("you must follow {suit}: play the {n} card lit up",
                            "you must follow {suit}: play one of the {n} cards lit up", n).format(suit=suit, n=n)
        return _("you must follow {suit}: you hold {cards}").format(suit=suit, cards=card_list(w.pack, cards))
    if n > MAX_NAMED:
        return ngettext("you have no {suit}, so you must play a trump: play the {n} card lit up",
                        "you have no {suit}, so you must play a trump: play one of the {n} cards lit up",
                        n).format(suit=suit, n=n)
    return _("you have no {suit}, so you must play a trump: you hold {cards}").format(
        suit=suit, cards=card_list(w.pack, cards))


def _refused(w: Words, m: Msg) -> str:
    r = m.get("refusal")
    assert isinstance(r, Refusal)
    instead = m.numbers("instead")
    if instead and r.reason in ("must_follow", "must_trump"):
        text = _instead(w, r, instead)  # the card refused is the one just chosen
        return text[:1].upper() + text[1:]
    text = w.refusal(r)
    card = m.get("card")
    if isinstance(card, int) and card >= 0:
        name = card_name(w.pack, card)
        if name.lower() not in text.lower():
            text = _("{card}: {reason}").format(card=name, reason=text)
    return text[:1].upper() + text[1:]


# --- hints that say why (engine.ai.reasons) ----------------------------------------------


def _card_arg(w: Words, r: Msg, name: str = "card") -> str:
    c = r.get(name)
    return card_name(w.pack, c) if isinstance(c, int) else "?"


def _discard_points(w: Words, r: Msg) -> str:
    cards = r.numbers("cards")
    n = w.pack.mask_points(sum(1 << c for c in cards))
    if w.rules.n_sides < w.rules.n_seats:
        return ngettext("bank {n} point in the discard: it counts for your team whoever takes the tricks",
                        "bank {n} points in the discard: they count for your team whoever takes the tricks",
                        n).format(n=n)
    return ngettext("bank {n} point in the discard: it counts for you whoever takes the tricks",
                    "bank {n} points in the discard: they count for you whoever takes the tricks",
                    n).format(n=n)


def _only_of_suit(w: Words, r: Msg) -> str:
    if r.get("suit") == TRUMP_SUIT:
        return _("the {card} is your only trump, and trumps were led: play it").format(card=_card_arg(w, r))
    return _("the {card} is your only card of {suit}, the suit led: follow with it").format(
        card=_card_arg(w, r), suit=suit_name(r.number("suit", -1)))


_ReasonWords = Callable[["Words", Msg], str]

#: one sentence per reason key of :mod:`engine.ai.reasons`
_REASONS: dict[str, _ReasonWords] = {
    "forced": lambda w, r: _("it is the only card you may play"),
    "partner_sure": lambda w, r: _("your partner's trick is sure: give it points"),
    "matto_save": lambda w, r: _("you cannot win this trick: the Matto saves your points"),
    "take_sure": lambda w, r: _("the {card} takes this trick: no card still to be played can beat it").format(
        card=_card_arg(w, r)),
    "void_trump": lambda w, r: _("you are void in {suit}: a trump takes this").format(
        suit=suit_name(r.number("suit", -1))),
    "master_trumps_out": lambda w, r: _("the last trump is out: your {card} is now master").format(
        card=_card_arg(w, r)),
    "master": lambda w, r: _("no higher card of the suit is still to be played: your {card} is master").format(
        card=_card_arg(w, r)),
    "top_trump": lambda w, r: _("the {card} is the highest trump left: lead it to draw trumps").format(
        card=_card_arg(w, r)),
    "second_low": lambda w, r: _("second hand low: keep your strong cards for later"),
    "cannot_win": lambda w, r: _("nothing you hold beats the {card}: give your cheapest card").format(
        card=_card_arg(w, r)),
    "only_of_suit": _only_of_suit,
    "cheap_win": lambda w, r: _("the {card} is your cheapest card that wins the trick so far").format(
        card=_card_arg(w, r)),
    "keep_matto": lambda w, r: _("keep the Matto for a trick you cannot win"),
    "draw_trumps": lambda w, r: _("lead a trump to draw the others' trumps"),
    "lead_low": lambda w, r: _("lead a low card: let the others spend their high ones"),
    "discard_void": lambda w, r: _("laying aside your last {suit} leaves you void: your trumps can take "
                                   "those tricks").format(suit=suit_name(r.number("suit", -1))),
    "discard_points": _discard_points,
    "discard_low": lambda w, r: _("lay aside low cards you would lose anyway"),
}


def _hints(w: Words, m: Msg) -> str:
    """The hint's line: the best card's reason, or what the marks over the cards say."""
    r = m.get("reason")
    if r is not None:
        why = w.reason(r)
        return _("★ The best: {reason}").format(reason=why)
    if w.rules.n_sides < w.rules.n_seats:
        return _("★ the best, ≈ almost as good, −3: loses about 3 points for our team")
    return _("★ the best, ≈ almost as good, −3: loses about 3 points for you")


#: a hint's loss (points below the best card's) up to which a card is "almost as good"
ALMOST = 1.0
#: and up to which it is the best itself (the search's own noise)
SAME = 0.05


def hint_figure(loss: float) -> str:
    """The mark over a card of a hint: ★ the best, ≈ almost as good, else the
    points it loses against the best, whole ("−3")."""
    if loss < SAME:
        return "★"
    if loss < ALMOST:
        return "≈"
    return f"−{max(1, round(loss))}"


# --- lessons (game.table.lessons) -------------------------------------------------------------------


def _lesson_step(w: Words, m: Msg) -> str:
    """What the lesson asks for now, by the kind of move."""
    kind = m.get("kind")
    cards = m.numbers("cards")
    card = card_list(w.pack, cards)
    suit = suit_name(m.number("suit", -1))
    if m.get("free"):
        if kind == "discard":
            return _("Coach: lay aside {cards}, or choose your own").format(cards=card)
        return _("Coach: play {card}, or choose your own").format(card=card)
    texts: dict[MoveKind, Callable[[], str]] = {
        "lead": lambda: _("You lead: play {card}").format(card=card),
        "follow": lambda: _("{suit} were led and you hold some: play {card}").format(suit=suit, card=card),
        "trump": lambda: _("You have no {suit}: you must play a trump. Play {card}").format(suit=suit,
                                                                                          card=card),
        "any": lambda: _("Trumps were led and you have none: any card will do. Play {card}").format(card=card)
        if m.get("suit") == TRUMP_SUIT else _("No {suit} and no trump: any card will do. Play {card}").format(
            suit=suit, card=card),
        "matto": lambda: _("Play the Matto: it never wins, and comes back to your team's pile")
        if w.rules.n_sides < w.rules.n_seats else _("Play the Matto: it never wins, and comes back to your pile"),
        "discard": lambda: _("Click {cards} to lay them aside, then confirm").format(cards=card),
    }
    for k, words in texts.items():
        if k == kind:
            return words()
    raise ValueError(f"no lesson move is of the kind {kind!r}")


def _lesson_coach(w: Words, m: Msg) -> str:
    """The coach's panel: where the lesson stands (a line), its title (a line),
    what it teaches and why this move."""
    k, n = m.get("k"), m.get("n")
    step = m.number("step")
    total = m.number("steps")
    if total and not m.get("over"):
        where = _("Lesson {k} of {n} · move {i} of {steps}").format(k=k, n=n, i=step + 1, steps=total)
    else:
        where = _("Lesson {k} of {n}").format(k=k, n=n)
    lines = [where + "\n" + _(str(m.get("title")))]
    if m.get("over"):
        lines.append(_("Lesson complete! Go on to the next lesson, or press Esc for the menu.")
                     if m.get("next") else _("Lesson complete! Press Esc for the menu."))
    if m.get("intro_too", True):  # said at the first move, and at the end
        lines[-1] += "\n" + _(str(m.get("intro")))
    why = m.get("why")
    if why is not None and not m.get("over"):
        text = w.reason(why)
        lines.append(_("Why: {reason}").format(reason=text[:1].upper() + text[1:]))
    return "\n\n".join(x for x in lines if x)


def _lesson_wrong(w: Words, m: Msg) -> str:
    return _("{card} may be played, but this lesson plays {expected}: try again").format(
        card=card_name(w.pack, m.number("card")), expected=card_name(w.pack, m.number("expected")))


def _lesson_wrong_discard(w: Words, m: Msg) -> str:
    return _("{card} may be laid aside, but this lesson lays aside {cards}").format(
        card=card_name(w.pack, m.number("card")), cards=card_list(w.pack, m.numbers("cards")))


def _confirm_label(w: Words, m: Msg) -> str:
    n = m.number("n")
    if w.rules.stock_cards:
        return ngettext("Lay this card aside", "Lay these {n} aside", n).format(n=n)
    return ngettext("Discard this card", "Discard these {n}", n).format(n=n)


_TEMPLATES: dict[str, _Template] = {
    "deal": _deal,
    "stock": _stock,
    "discarded": _discarded,
    "trick": _trick,
    "thinking": lambda w, m: _("{name} is thinking…").format(name=w.name(m.get("seat"))),
    # online: the other seats' people and the link to the server
    "reconnecting": lambda w, m: _("{name} is reconnecting…").format(name=w.name(m.get("seat"))),
    "seat_back": lambda w, m: _("{name} is back").format(name=w.name(m.get("seat"))),
    "connection_lost": lambda w, m: _("Connection lost: reconnecting…"),
    "connection_back": lambda w, m: _("Connected again"),
    "opened_elsewhere": lambda w, m: _("Opened elsewhere: this seat is now played from another "
                                       "window"),
    "server_gone": lambda w, m: server_gone(str(m.get("why", ""))),
    "save_failed": lambda w, m: _("Not saved, so not played: {text}. Enter: try again; or leave "
                                  "(saved up to the last move)").format(text=m.get("text")),
    "takeover": lambda w, m: _("{name} is now played by the AI").format(name=w.name(m.get("seat"))),
    "timeout": lambda w, m: _("{name} ran out of time: the AI played").format(
        name=w.name(m.get("seat"))),
    "your_turn": lambda w, m: _("Your turn: play a card"),
    "your_discard": _your_discard,
    "confirm_discard": _confirm_discard,
    "confirm_label": _confirm_label,
    "click_to_continue": lambda w, m: _("Click or press Space to continue"),
    "matto": _matto,
    "refused": _refused,
    "engine": lambda w, m: str(m.get("text", "")),
    "thinking_hint": lambda w, m: _("Thinking about your cards…"),
    "hints": _hints,
    "speed": lambda w, m: _("Animation speed: x{speed}").format(speed=f"{m.get('speed'):g}"),
    "nothing_to_undo": lambda w, m: _("Nothing to undo: this is your first move"),
    "nothing_to_redo": lambda w, m: _("Nothing to redo"),
    "led_took": _led_took,
    "standing": lambda w, m: w.standing(m.number("deal"), m.number("n_deals", 1), m.numbers("totals"),
                                        m.number("scored")),
    "last_trick": _last_trick,
    "lesson_step": _lesson_step,
    "lesson_coach": _lesson_coach,
    "lesson_wrong": _lesson_wrong,
    "lesson_wrong_discard": _lesson_wrong_discard,
    "lesson_done": lambda w, m: _("Lesson complete! Enter: the next lesson. Esc: the menu")
    if m.get("next") else _("Lesson complete! Esc: the menu"),
}


class Words:
    """Words one table's messages: its game, its seats' names, and the viewer
    (the seat that is "you", or None when nobody at the table is)."""

    def __init__(self, rules: Ruleset, viewer: int | None = 0, names: Sequence[str] | None = None) -> None:
        self.rules: Ruleset = rules
        self.pack: Pack = rules.pack
        self.viewer = viewer
        self._names = list(names) if names is not None else None

    def is_you(self, seat: object) -> bool:
        return self.viewer is not None and seat == self.viewer

    def name(self, seat: object) -> str:
        """A seat's name on this table: "You", "Partner", or where it sits."""
        if not isinstance(seat, int) or not 0 <= seat < self.rules.n_seats:
            return "?"
        if self._names is not None:
            return self._names[seat]
        if self.is_you(seat):
            return _("You")
        if self.viewer is not None and seat == self.rules.partner[self.viewer]:
            return _("Partner")
        return _(self.rules.seat_names[seat])

    def names(self) -> list[str]:
        return [self.name(s) for s in range(self.rules.n_seats)]

    def say(self, m: Msg | None) -> str:
        """The message in words, as a sentence (its first letter a capital)."""
        if m is None:
            return ""
        text = _TEMPLATES[m.key](self, m)
        return text[:1].upper() + text[1:]

    def refusal(self, r: Refusal) -> str:
        """A refusal in plain words: "you must follow Cups" (its rule id apart,
        :meth:`refusal_rule`)."""
        fn = _REFUSALS.get(r.reason)
        if fn:
            return fn(self, r)
        return r.text.replace(f" ({r.rule})", "") if r.rule else r.text

    def reason(self, r: object) -> str:
        """A hint's reason (:class:`engine.ai.reasons.Reason`) in one sentence."""
        key = str(getattr(r, "key", ""))
        fn = _REASONS.get(key)
        return fn(self, Msg(key, tuple(getattr(r, "args", ())))) if fn else ""

    def refusal_rule(self, r: Refusal) -> str:
        """The rule a refusal applies, for a tooltip: "Rule R7 (see Rules)"."""
        return _("Rule {rule} (see Rules)").format(rule=r.rule) if r.rule else ""

    # --- the table's labels ---------------------------------------------------------

    def hint_words(self, loss: float) -> str:
        """A hint's value in words, from the points a card loses against the best:
        "the best", "almost as good", "loses about 3 points"."""
        if loss < SAME:
            return _("the best")
        if loss < ALMOST:
            return _("almost as good")
        n = max(1, round(loss))
        return ngettext("loses about {n} point", "loses about {n} points", n).format(n=n)

    def cards_held(self, n: int) -> str:
        return ngettext("{n} card", "{n} cards", n).format(n=n)

    def pile_line(self, side: int, points: int, tricks: int) -> str:
        """A side's pile during play in plain words: "Us: 17 points, 2 tricks" (the
        card points taken so far; the deal's result, with the discard and in Scarto
        the count in threes, comes on the sheet at the end)."""
        tricks_text = ngettext("{n} trick", "{n} tricks", tricks).format(n=tricks)
        points_text = ngettext("{n} point", "{n} points", points).format(n=points)
        return _("{side}: {points}, {tricks}").format(side=self.side_name(side), points=points_text,
                                                      tricks=tricks_text)

    def pile_title(self, side: int, tricks: int) -> str:
        """The label by a trick pile: whose tricks, how many ("Our tricks: 3")."""
        rules = self.rules
        seats = [s for s in range(rules.n_seats) if rules.side[s] == side]
        if len(seats) == 1:
            if self.is_you(seats[0]):
                return _("Your tricks: {n}").format(n=tricks)
            return _("{name}'s tricks: {n}").format(name=_(rules.seat_names[seats[0]]), n=tricks)
        mine = rules.side[self.viewer if self.viewer is not None else 0]
        return (_("Our tricks: {n}") if side == mine else _("Their tricks: {n}")).format(n=tricks)

    def standing(self, deal_no: int, n_deals: int, totals: Sequence[int], scored: int) -> str:
        """Where the game stands during play: "Deal 2 of 4 · Match: Us 64, Them 50"
        (the totals over the ``scored`` deals finished); "" for a single deal."""
        if n_deals <= 1 or deal_no < 1:
            return ""
        deal = _("Deal {n} of {total}").format(n=deal_no, total=n_deals)
        if not scored:
            return deal
        signed = bool(self.rules.par)
        sides = ", ".join(f"{self.side_name(s)} {signed_figure(v, signed)}" for s, v in enumerate(totals))
        if self.rules.n_sides < self.rules.n_seats:
            return _("{deal} · Match: {sides}").format(deal=deal, sides=sides)
        return _("{deal} · Game: {sides}").format(deal=deal, sides=sides)

    def side_name(self, side: int) -> str:
        """A side's short name: "Us"/"Them" for teams, a seat's name for one alone."""
        rules = self.rules
        seats = [s for s in range(rules.n_seats) if rules.side[s] == side]
        if len(seats) == 1:
            return self.name(seats[0])
        mine = rules.side[self.viewer if self.viewer is not None else 0]
        return _("Us") if side == mine else _("Them")

    def side_title(self, side: int) -> str:
        """A side's heading on the score sheet: "Us (South-North)", or a seat's name."""
        rules = self.rules
        seats = [s for s in range(rules.n_seats) if rules.side[s] == side]
        if len(seats) == 1:
            return self.name(seats[0])
        where = "-".join(_(rules.seat_names[s]) for s in seats)
        mine = rules.side[self.viewer if self.viewer is not None else 0]
        if side == mine:
            return _("Us ({seats})").format(seats=where)
        return _("Them ({seats})").format(seats=where)

    def trumps_discarded(self, n: int) -> str:
        return ngettext("{n} trump discarded", "{n} trumps discarded", n).format(n=n)

    # --- results ----------------------------------------------------------------------

    def outcome(self, outcome: Outcome, points: Sequence[int], whole_game: bool) -> str:
        """Who won or lost a deal (``whole_game`` False) or the game, from the
        engine's :class:`~engine.ruleset.Outcome` over the sides."""
        rules = self.rules
        teams = rules.n_sides < rules.n_seats
        if teams:
            mine = rules.side[self.viewer if self.viewer is not None else 0]
            a, b = points[mine], points[1 - mine]
            if outcome.draw:
                return (_("The match is drawn, {a} all") if whole_game else _("A draw: {a} all")).format(a=a)
            if mine in outcome.winners:
                return (_("We win the match, {a} to {b}!") if whole_game
                        else _("We win the deal, {a} to {b}!")).format(a=a, b=b)
            return (_("They win the match, {b} to {a}") if whole_game
                    else _("They win the deal, {b} to {a}")).format(a=a, b=b)
        if outcome.draw:
            return _("The game is drawn: every total is equal") if whole_game else _(
                "A draw: every count is equal")
        losers = list(outcome.losers)
        you = [s for s in losers if self.is_you(s)]
        others = [self.name(s) for s in losers if not self.is_you(s)]
        if you and not others:
            return _("You have the lowest total: you lose the game") if whole_game else _(
                "You have the lowest count: you lose the deal")
        if you:
            return (_("You and {name} share the lowest total: you both lose") if whole_game
                    else _("You and {name} share the lowest count")).format(name=others[0])
        names = and_list(others)
        if whole_game:
            return ngettext("{names} has the lowest total and loses the game",
                            "{names} share the lowest total and lose the game", len(others)).format(names=names)
        return ngettext("{names} has the lowest count and loses the deal",
                        "{names} share the lowest count and lose the deal", len(others)).format(names=names)

    def game_kind(self, n_deals: int) -> str:
        """"a single deal", "a match of four deals", "a game of three deals"."""
        if n_deals == 1:
            return _("single deal")
        if self.rules.n_sides < self.rules.n_seats:
            return ngettext("match of {n} deal", "match of {n} deals", n_deals).format(n=n_deals)
        return ngettext("game of {n} deal", "game of {n} deals", n_deals).format(n=n_deals)

    def game_title(self) -> str:
        """The game's name and what it is, for menus."""
        return _(GAME_TITLES.get(self.rules.name, self.rules.title))


def signed_figure(v: int, signed: bool) -> str:
    """A figure with a true minus sign; ``signed``: a plus on gains too ("+3")."""
    text = f"{v:+d}" if signed and v else str(v)
    return text.replace("-", "−")


GAME_NAMES = {"piedicavallo": N_("Piedicavallo"), "scarto": N_("Scarto")}
GAME_TITLES = {"piedicavallo": N_("Piedicavallo: four players, partners opposite"),
               "scarto": N_("Scarto: three players, each for themselves")}


def game_name(rules: Ruleset) -> str:
    return _(GAME_NAMES.get(rules.name, rules.title))


__all__ = ["Msg", "msg", "Words", "and_list", "card_name", "card_list", "card_label", "card_index", "cards_from_codes",
           "suit_name", "game_name", "signed_figure", "server_gone", "hint_figure"]
