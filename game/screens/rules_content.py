"""The rules screen's content as data, for both games (no arcade).

Each game's rules are a list of :class:`Section`; a section is a list of
blocks: paragraphs (:class:`Para`), lines of card pictures (:class:`Cards`,
each card with an optional label above and below and a mark: crossed out,
dimmed, or picked out in gold), a seating plan (:class:`Seats`) and a small
score table (:class:`Scores`).  The view (``game.screens.rules``) only lays these
out and draws them.

What can be taken from the engine is taken from it, so the pictures cannot
disagree with the rules the program plays: the order of each rank row is the
pack's trick strength, the value under each card is the pack's points, the
cards that may never be laid aside are the ruleset's ``never_discard_mask``,
the winner of the example trick is ``trick_winner_index``, Scarto's groups are
counted by ``side_points`` and the example game's totals and result are
``totals`` and ``game_outcome``.  Texts are msgids (marked with ``N_`` and
``Np_`` so ``game.i18n_tools`` finds them), worded in the current language
only when shown (:func:`words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.cards import TRUMP_SUIT
from engine.ruleset import Outcome, Ruleset, ruleset
from game.common.i18n import N_, _, ngettext
from game.common.words import Words, card_name

# --- texts as data ---------------------------------------------------------------------


@dataclass(frozen=True)
class Say:
    """A text worded when shown: a msgid and its arguments; ``plural`` and ``n``
    for a counted text; ``card`` (a code) for a card's name in the language."""

    msgid: str = ""
    args: tuple[tuple[str, object], ...] = ()
    plural: str | None = None
    n: int = 0
    card: str = ""
    game: str = "piedicavallo"
    #: the engine's result of a whole game, worded by ``Words.outcome``:
    #: (winners, losers, totals by side)
    outcome: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None


def say(msgid: str, **args: object) -> Say:
    return Say(msgid, tuple(sorted(args.items())))


def Np_(singular: str, plural: str, n: int, **args: object) -> Say:  # noqa: N802 - gettext's style
    """A counted text (found by ``game.i18n_tools`` like ``ngettext``)."""
    return Say(singular, tuple(sorted({"n": n, **args}.items())), plural, n)


def name_of(code: str, rules: Ruleset) -> Say:
    """A card's long name ("King of Swords", "trump 21") in the language shown."""
    return Say(card=code, game=rules.name)


def verbatim(text: str) -> Say:
    """A text that is the same in every language (a card code, a number)."""
    return Say("{t}", (("t", text),))


def words(s: Say | None) -> str:
    """``s`` in the current language."""
    if s is None:
        return ""
    if s.card:
        rules = ruleset(s.game)
        name = card_name(rules.pack, rules.pack.parse(s.card))
        return name[:1].upper() + name[1:]
    if s.outcome is not None:
        winners, losers, totals = s.outcome
        return Words(ruleset(s.game), 0).outcome(Outcome(winners, losers), totals, True)
    args = {k: _word_arg(v) for k, v in s.args}
    if s.plural is not None:
        return ngettext(s.msgid, s.plural, s.n).format(**args)
    return (_(s.msgid) if s.msgid != "{t}" else s.msgid).format(**args)


def _word_arg(v: object) -> object:
    return words(v) if isinstance(v, Say) else v


# --- blocks ------------------------------------------------------------------------------

#: how a card picture is marked: plain, crossed out (never allowed), dimmed (only
#: when forced), ringed in gold (the one to note)
Mark = Literal["", "crossed", "dimmed", "gold"]
PLAIN: Mark = ""
CROSSED: Mark = "crossed"
DIMMED: Mark = "dimmed"
GOLD: Mark = "gold"
BACK = "back"  # a card seen from the back, as a code
#: a paragraph's ink: plain, gold for a key sentence, dim for an aside
Ink = Literal["ink", "gold", "dim"]
#: the sections of the rules, by key: one tab each, in this order
Page = Literal["pack", "faces", "ranks", "points", "deal", "discard", "play", "scoring", "game", "glossary",
               "tips"]


@dataclass(frozen=True)
class Face:
    """One card picture: its code, a label above and below, and a mark."""

    code: str
    top: Say | None = None
    bottom: Say | None = None
    mark: Mark = PLAIN


@dataclass(frozen=True)
class Group:
    """Cards shown together under one caption; ``fan`` overlaps them (only the
    corner of each but the last shows), otherwise they stand apart;
    ``note`` is a line under the group (e.g. a worked sum)."""

    cards: tuple[Face, ...]
    caption: Say | None = None
    fan: bool = False
    note: Say | None = None
    spread: float = 0.42  # a fan's step, in card widths


@dataclass(frozen=True)
class Cards:
    """A line of groups, left to right (wrapped by the view if it is too wide)."""

    groups: tuple[Group, ...]
    width: int = 68  # the cards' width on screen (a size the textures hold: 96, 84 or 68)


@dataclass(frozen=True)
class Para:
    text: Say
    size: int = 14
    colour: Ink = "ink"


@dataclass(frozen=True)
class Seats:
    """The table seen from above: each seat's name, a count and a role under it;
    play goes anticlockwise (an arrow)."""

    names: tuple[Say, ...]
    counts: tuple[Say, ...]  # () for none
    roles: tuple[Say | None, ...]  # () for none; else what each seat does ("deals", "cuts")
    sides: tuple[int, ...]
    caption: Say | None = None
    beside: Cards | None = None  # cards shown under the caption, right of the table


@dataclass(frozen=True)
class Scores:
    """A small table: a header of column names, rows of (label, values), the
    totals row, and the result in words."""

    header: tuple[Say, ...]
    rows: tuple[tuple[Say, tuple[int, ...]], ...]
    total: tuple[Say, tuple[int, ...]]
    result: Say


Block = Para | Cards | Seats | Scores


@dataclass(frozen=True)
class Section:
    key: Page
    title: Say
    tab: Say  # the short title on the section's tab
    rules: str  # the rule ids of RULES.md the section explains ("R5-R6")
    blocks: tuple[Block, ...] = field(default_factory=tuple)


# --- helpers on the engine's pack --------------------------------------------------------


def strongest_first(rules: Ruleset, suit: int) -> list[str]:
    """The codes of ``suit`` (TRUMP_SUIT for the trumps), strongest first: the
    pack numbers each suit weakest first, in trick-strength order."""
    p = rules.pack
    cards = [c for c in range(p.n_cards) if p.suit[c] == suit]
    return [p.codes[c] for c in sorted(cards, key=lambda c: p.strength[c], reverse=True)]


def points_of(rules: Ruleset, code: str) -> int:
    p = rules.pack
    return p.points[p.parse(code)]


def never_discard(rules: Ruleset) -> list[str]:
    """The cards the dealer may never lay aside (R6, S4), Kings first."""
    p = rules.pack
    mask = rules.never_discard_mask  # type: ignore[attr-defined]
    cards = [c for c in range(p.n_cards) if mask >> c & 1]
    kings = [c for c in cards if p.suit[c] != TRUMP_SUIT and p.codes[c].endswith("K")]
    return [p.codes[c] for c in kings + [c for c in cards if c not in kings]]


def _show_order(rules: Ruleset, code: str) -> tuple[int, int]:
    """Suit cards first (by suit), then the trumps, strongest first, then the Matto."""
    p = rules.pack
    c = p.parse(code)
    if c == p.matto:
        return (2, 0)
    if p.suit[c] == TRUMP_SUIT:
        return (1, -p.strength[c])
    return (0, p.suit[c])


def point_label(rules: Ruleset, code: str) -> Say:
    n = points_of(rules, code)
    return Np_("{n} point", "{n} points", n)


def _faces(codes: Sequence[str], mark: Mark = PLAIN) -> tuple[Face, ...]:
    return tuple(Face(c, mark=mark) for c in codes)


def _group_value(rules: Ruleset, codes: Sequence[str], tricks: int) -> int:
    """What a group of cards adds to its player's count: the ruleset's own sum."""
    p = rules.pack
    mask = 0
    for c in codes:
        mask |= 1 << p.parse(c)
    return rules.side_points(mask, tricks)


# --- the sections ------------------------------------------------------------------------


def sections(rules: Ruleset) -> list[Section]:
    """The rules of ``rules``' game, section by section."""
    return [fn(rules) for fn in SECTIONS[rules.name]]


def _seat_names(rules: Ruleset) -> tuple[Say, ...]:
    return tuple(say(N_("You (South)")) if s == 0 else say(rules.seat_names[s]) for s in range(rules.n_seats))


def _pack_cards() -> Cards:
    return Cards((
        Group(_faces(("T1", "T2", "T3", "T21")), say(N_("Trumps, 1 to 21")), fan=True),
        Group(_faces(("M",)), say(N_("The Matto"))),
        Group(_faces(("SK", "BK", "CK", "DK")), say(N_("Swords, Batons, Cups, Coins")), fan=True, spread=0.7),
    ), width=84)


def _pack(rules: Ruleset) -> Section:
    if rules.name == "scarto":
        text = say(N_("The whole pack of 78 cards: 21 trumps numbered 1 to 21, the Matto (the Fool), and "
                      "four suits of fourteen cards: Swords, Batons, Cups and Coins, each with its King, "
                      "Queen, Knight, Jack and ten numbered cards, Ace to 10."))
        table = say(N_("Three players, each for themselves: you (South), East on your right and West on "
                       "your left. Play goes anticlockwise: the next player is the one on your right."))
        rule = "S1"
    else:
        text = say(N_("62 cards: 21 trumps numbered 1 to 21, the Matto (the Fool), and four suits of ten "
                      "cards: Swords, Batons, Cups and Coins. Swords and Batons keep their 5 to 10, Cups and "
                      "Coins their Ace to 6, and every suit its King, Queen, Knight and Jack."))
        table = say(N_("Four players, partners opposite: you (South) and your partner (North) against "
                       "East and West. Play goes anticlockwise: the next player is the one on your right."))
        rule = "R1-R2"
    return Section("pack", say(N_("The pack and the table")), say(N_("The pack")), rule, (
        Para(text), _pack_cards(), Seats(_seat_names(rules), (), (), rules.side, table)))


def _faces_section(rules: Ruleset) -> Section:
    court = tuple(Face(code, verbatim(letter), say(word)) for code, letter, word in (
        ("SK", "R = Re", N_("King")), ("SQ", "D = Donna", N_("Queen")),
        ("SN", "C = Cavallo", N_("Knight")), ("SJ", "F = Fante", N_("Jack"))))
    numerals = (Face("S10", verbatim("X = 10")), Face("B9", verbatim("IX = 9")))
    arabic = (Face("C1", say(N_("1 = Ace"))), Face("D6", verbatim("6")))
    codes = tuple(Face(c, verbatim(c), name) for c, name in (
        ("SK", say(N_("King of Swords"))), ("B10", say(N_("10 of Batons"))), ("CN", say(N_("Knight of Cups"))),
        ("D1", say(N_("Ace of Coins"))), ("T21", name_of("T21", rules)), ("M", name_of("M", rules))))
    return Section("faces", say(N_("Reading the cards")), say(N_("Reading the cards")), "", (
        Para(say(N_("The faces are Italian: a court card shows the initial of its Italian name. Swords and "
                    "Batons are numbered in Roman numerals, Cups and Coins in Arabic ones."))),
        Cards((
            Group(court, say(N_("Court cards"))),
            Group(numerals, say(N_("Roman"))),
            Group(arabic, say(N_("Arabic"))),
        )),
        Para(say(N_("Replay files and the tools write a card as a code: the suit (S, B, C, D), then K, Q, N "
                    "or J, or the number (1 is the Ace); T1 to T21 are the trumps, M the Matto. On a face "
                    "D is the Queen (Donna); in a code, D is Coins (Denari)."))),
        Cards((Group(codes),)),
    ))


def _ranks(rules: Ruleset) -> Section:
    trumps = strongest_first(rules, TRUMP_SUIT)
    swords = strongest_first(rules, 0)
    cups = strongest_first(rules, 2)
    if rules.name == "scarto":
        trump_line = Cards((
            Group((Face(trumps[0], mark=GOLD),), say(N_("Highest: 20"))),
            Group(_faces(trumps[1:]), say(N_("then 21, then 19 down to 1")), fan=True),
        ))
        swords_caption = say(N_("Swords and Batons: King, Queen, Knight, Jack, then 10 down to the Ace"))
        cups_caption = say(N_("Cups and Coins: King, Queen, Knight, Jack, then the Ace, 2, 3 ... down to "
                              "the 10"))
        rule = "S2"
    else:
        trump_line = Cards((Group(_faces(trumps), say(N_("Trumps, highest first: 21 down to 1")), fan=True),),
                           width=84)
        swords_caption = say(N_("Swords and Batons: King, Queen, Knight, Jack, then 10 down to 5"))
        cups_caption = say(N_("Cups and Coins: King, Queen, Knight, Jack, then the Ace, 2, 3 ... down to "
                              "the 6"))
        rule = "R3, R8"
    return Section("ranks", say(N_("Which card wins")), say(N_("Which card wins")), rule, (
        Para(say(N_("The highest trump wins the trick; if no trump is played, the highest card of the suit "
                    "led. A card of another suit never wins. The Matto has no rank and no suit. Highest "
                    "first:"))),
        trump_line,
        # Piedicavallo's ten cards a suit are drawn larger than Scarto's fourteen
        Cards((Group(_faces(swords), swords_caption, fan=True), Group(_faces(cups), cups_caption, fan=True)),
              width=68 if len(swords) > 10 else 84),
    ))


#: cards shown for "every other card is worth 1" (checked against the pack)
_ONE_POINT = {"piedicavallo": ("T2", "T20", "S10", "B5", "C1", "D6"),
              "scarto": ("T21", "T2", "S10", "B1", "C1", "D10")}
#: cards worth other points here than in the other game, picked out in gold
_SURPRISES = {"piedicavallo": (), "scarto": ("T21", "M", "T20")}


def _points(rules: Ruleset) -> Section:
    p = rules.pack
    gold = _SURPRISES[rules.name]
    values = sorted({v for v in p.points if v > 1}, reverse=True)
    groups = []
    for v in values:
        codes = sorted((c for c in p.codes if points_of(rules, c) == v), key=lambda c: _show_order(rules, c))
        faces = tuple(Face(c, mark=GOLD if c in gold else PLAIN) for c in codes)
        groups.append(Group(faces, Np_("{n} point", "{n} points", v), fan=True, spread=0.5))
    ones = tuple(Face(c, mark=GOLD if c in gold else PLAIN) for c in _ONE_POINT[rules.name]
                 if points_of(rules, c) == 1)
    groups.append(Group(ones, say(N_("1 point: every other card")), fan=True, spread=0.5))
    if rules.name == "scarto":
        total = say(N_("The pack holds {total} points, counted in threes at the end of the deal (see "
                       "Scoring). In gold: trump 20 is worth 5 here, trump 21 only 1, and the Matto 4."),
                    total=p.total_points)
        rule = "S3"
    else:
        total = say(N_("The pack holds {total} points. Each team counts the points of the cards it took."),
                    total=p.total_points)
        rule = "R4"
    return Section("points", say(N_("What the cards are worth")), say(N_("Points")), rule, (
        Para(say(N_("Kings are worth 5, Queens 4, Knights 3 and Jacks 2; the trumps and the Matto shown "
                    "beside them count the same, and every other card 1. The dots under a card's index "
                    "show its value."))),
        Cards(tuple(groups[:2])),
        Cards(tuple(groups[2:])),
        Para(total),
    ))


def _deal(rules: Ruleset) -> Section:
    dealer = 0
    cutter = rules.cutter(dealer)
    first = rules.next_seat(dealer)
    counts = tuple(Np_("{n} card", "{n} cards", rules.dealt_cards(s, dealer)) for s in range(rules.n_seats))
    roles: list[Say | None] = [None] * rules.n_seats
    roles[dealer] = say(N_("deals"))
    roles[cutter] = say(N_("cuts"))
    roles[first] = say(N_("leads first"))
    if rules.name == "scarto":
        text = say(N_("The dealer shuffles and the player on the dealer's left cuts. The dealer deals "
                      "anticlockwise, starting on the right, in packets of {packet}: {hand} cards to each "
                      "player. The {stock} cards left over are the stock, which the dealer takes: {total} "
                      "cards."), packet=rules.packets[0], hand=rules.hand_cards, stock=rules.stock_cards,
                   total=rules.dealer_cards())
        rule = "S4"
    else:
        text = say(N_("The dealer shuffles and the player on the dealer's left cuts. The dealer deals "
                      "anticlockwise, starting on the right, in packets of {packet}: {hand} cards to each of "
                      "the others, and the last {extra} to the dealer, who holds {total}."),
                   packet=rules.packets[0], hand=rules.hand_cards, extra=rules.dealer_extra,
                   total=rules.dealer_cards())
        rule = "R5"
    caption = say(N_("When you deal, {cutter} (on your left) cuts, and {first} (on your right) receives the "
                     "first packet and leads the first trick."),
                  cutter=say(rules.seat_names[cutter]), first=say(rules.seat_names[first]))
    stock = None
    if rules.stock_cards:
        stock = Cards((Group(_faces((BACK,) * rules.stock_cards), Np_(
            "The stock: {n} card face down, for the dealer", "The stock: {n} cards face down, for the dealer",
            rules.stock_cards), fan=True, spread=0.5),))
    blocks: list[Block] = [Para(text), Seats(_seat_names(rules), counts, tuple(roles), rules.side, caption, stock),
                           Para(say(N_("The first dealer is drawn at random; after each deal the deal passes "
                                       "to the right.")))]
    return Section("deal", say(N_("The deal")), say(N_("The deal")), rule, tuple(blocks))


def _discard(rules: Ruleset) -> Section:
    never = _faces(never_discard(rules), mark=CROSSED)
    if rules.name == "scarto":
        blocks: tuple[Block, ...] = (
            Para(say(N_("With the stock the dealer holds {total} cards, and lays {n} of them face down on "
                        "their own pile: they count for the dealer at the end. They may be the cards just "
                        "taken. Nobody else sees the stock or the discard, and no count is announced."),
                     total=rules.dealer_cards(), n=rules.discard_cards)),
            Cards((
                Group(never, say(N_("Never laid aside"))),
                Group((Face("T1", mark=DIMMED),), say(N_("Only with no other trump and no Matto"))),
            )),
            Cards((Group(_faces(("SQ", "BN", "C10", "D1", "T5", "T21")),
                         say(N_("Any other card, trumps included")), fan=True, spread=0.5),)),
        )
        rule = "S4"
    else:
        blocks = (
            Para(say(N_("The dealer, holding {total} cards, lays {n} of them aside face down, for the "
                        "team's pile. The dealer says how many of them are trumps; nobody else sees the "
                        "cards."), total=rules.dealer_cards(), n=rules.discard_cards)),
            Cards((Group(never, say(N_("Never laid aside"))),)),
            Cards((
                Group(_faces(("SQ", "BN", "C1", "D6", "S5")), say(N_("Any suit card but a King")), fan=True,
                      spread=0.5),
                Group(_faces(("T5", "T12"), mark=DIMMED), say(N_("A trump only when forced")), fan=True,
                      spread=0.5),
            )),
            Para(say(N_("A trump may be laid aside only when the dealer has fewer than 2 suit cards that are "
                        "not Kings (and then only as many trumps as are needed), or when the discard leaves "
                        "the dealer with no trump at all.")), colour="dim"),
        )
        rule = "R6"
    return Section("discard", say(N_("The discard")), say(N_("The discard")), rule, blocks)


def _play(rules: Ruleset) -> Section:
    trick: tuple[str, ...]
    roles: tuple[Say, ...]
    if rules.name == "scarto":
        trick = ("B4", "T21", "T20")
        roles = (say(N_("leads Batons")), say(N_("no Batons: trumps")), say(N_("trumps higher")))
        lead = say(N_("The player on the dealer's right leads. Follow the suit led if you can; if you "
                      "cannot, play a trump if you have one; otherwise play any card. You never have to beat "
                      "the cards already played. The winner leads the next trick; 25 tricks of three cards."))
        matto = say(N_("The Matto may be played to any trick, instead of following suit or trumping. It "
                       "never wins and is never captured: it goes to its own player's pile, whether or not "
                       "that player takes a trick. If it is led, the second card sets the suit."))
        rule = "S5"
    else:
        trick = ("C3", "CK", "T4", "M")
        roles = (say(N_("leads Cups")), say(N_("follows Cups")), say(N_("no Cups: trumps")),
                 say(N_("the Matto")))
        lead = say(N_("The player on the dealer's right leads. Follow the suit led if you can; if you "
                      "cannot, play a trump if you have one; otherwise play any card. You never have to beat "
                      "the cards already played. The winner leads the next trick."))
        matto = say(N_("The Matto may be played to any trick, instead of following suit or trumping. It "
                       "never wins and is never captured: it goes to its own team's pile. If it is led, the "
                       "second card sets the suit; it keeps this privilege in the last trick."))
        rule = "R7-R9"
    p = rules.pack
    win = rules.trick_winner_index([p.parse(c) for c in trick])
    order = [say(N_("1st")), say(N_("2nd")), say(N_("3rd")), say(N_("4th"))]
    faces = tuple(Face(c, order[i], roles[i], GOLD if i == win else PLAIN) for i, c in enumerate(trick))
    return Section("play", say(N_("Playing a trick")), say(N_("Playing a trick")), rule, (
        Para(lead),
        Cards((Group(faces, say(N_("A trick, in the order played; the gold card takes it"))),), width=84),
        Para(matto),
    ))


def _plus(values: Sequence[int]) -> str:
    return " + ".join(map(str, values))


def _scoring_p(rules: Ruleset) -> Section:
    p = rules.pack
    trick = ("CK", "C2", "T4", "SQ")
    note = verbatim(f"{_plus([points_of(rules, c) for c in trick])} = {_group_value(rules, trick, 0)}")
    return Section("scoring", say(N_("Counting the points")), say(N_("Scoring")), "R10-R12", (
        Para(say(N_("After the {n} tricks each team counts the points of the cards in its tricks, plus its "
                    "own Matto, plus the discard for the dealer's team. The two counts add up to {total}."),
                 n=rules.n_tricks, total=p.total_points)),
        Cards((Group(tuple(Face(c, bottom=point_label(rules, c)) for c in trick),
                     say(N_("A trick taken: its cards' points")), note=note),)),
        Para(say(N_("More points wins the deal; {half} all is a draw."), half=p.total_points // 2),
             colour="gold"),
        Para(say(N_("A team that takes no trick gives up its Matto and, if it dealt, the discard, to the "
                    "other team: a sweep gives the winners all {total}."), total=p.total_points)),
    ))


def _scoring_s(rules: Ruleset) -> Section:
    examples = (("SK", "T20", "C3"), ("S4", "B7", "D9"), ("SQ", "BN", "CJ"))
    groups = []
    for codes in examples:
        pts = [points_of(rules, c) for c in codes]
        note = verbatim(f"{_plus(pts)} − 2 = {_group_value(rules, codes, 1)}")
        groups.append(Group(_faces(codes), say(N_("A group of three")), fan=True, spread=0.55, note=note))
    two = ("DK", "C5")  # the Matto's trick: two cards taken in one trick
    note = verbatim(f"({_plus([points_of(rules, c) for c in two])}) + 1 − 2 = {_group_value(rules, two, 1)}")
    groups.append(Group(_faces(two), say(N_("The Matto's trick")), fan=True, spread=0.55, note=note))
    groups.append(Group(_faces(("M",)), say(N_("The Matto")), note=verbatim(f"{_group_value(rules, ('M',), 0)}")))
    return Section("scoring", say(N_("Counting in threes")), say(N_("Scoring")), "S6", (
        Para(say(N_("Each player counts their pile in groups of three cards: a group is worth its points "
                    "minus 2. The Matto is counted alone, at 4; the player who took the trick it was played "
                    "to has one group of two cards, worth their points plus 1, minus 2."))),
        Cards(tuple(groups)),
        Para(say(N_("Counted so the pack holds {total}. Each player's score for the deal is their count minus "
                    "{par}, so the three scores add up to zero."), total=rules.total, par=rules.par),
             colour="gold"),
        Para(say(N_("The program groups each trick's cards together, and the dealer's discard as one group: "
                    "any grouping gives the same count.")), colour="dim"),
    ))


def _game_p(rules: Ruleset) -> Section:
    deals = ((64, 50), (40, 74), (57, 57), (70, 44))
    totals = rules.totals(deals)
    rows = tuple((say(N_("Deal {n}"), n=i + 1), d) for i, d in enumerate(deals))
    return Section("game", say(N_("The match")), say(N_("The match")), "R13", (
        Para(say(N_("A single deal is the default game. A match is {n} deals, each player dealing once, the "
                    "deal passing to the right; the first dealer is drawn at random. The team totals over the "
                    "{n} deals decide; equal totals are a draw."), n=rules.full_game)),
        Scores((say(N_("Us (South-North)")), say(N_("Them (East-West)"))), rows,
               (say(N_("Total")), totals), outcome_of(rules, rules.game_outcome(deals), totals)),
    ))


def _game_s(rules: Ruleset) -> Section:
    counts = ((30, 20, 28), (20, 30, 28), (22, 26, 30))
    scores = tuple(rules.deal_scores(c) for c in counts)
    totals = rules.totals(counts)
    rows = tuple((say(N_("Deal {n}"), n=i + 1), s) for i, s in enumerate(scores))
    return Section("game", say(N_("A game of three deals")), say(N_("Three deals")), "S6", (
        Para(say(N_("A game is {n} deals, each player dealing once, the deal passing to the right; the first "
                    "dealer is drawn at random. The lowest total loses; two players sharing the lowest both "
                    "lose; all three equal is a draw. Each deal's scores (count minus {par}):"),
                 n=rules.full_game, par=rules.par)),
        Scores(tuple(say(N_("You")) if s == 0 else say(rules.seat_names[s]) for s in range(rules.n_seats)),
               rows, (say(N_("Total")), totals), outcome_of(rules, rules.game_outcome(counts), totals)),
    ))


def _glossary(rules: Ruleset) -> Section:
    """The Italian words a player meets on the cards and around the table."""
    suits = tuple(Face(code, verbatim(it), say(en)) for code, it, en in (
        ("SK", "Spade", N_("Swords")), ("BK", "Bastoni", N_("Batons")), ("CK", "Coppe", N_("Cups")),
        ("DK", "Denari", N_("Coins"))))
    court = tuple(Face(code, verbatim(letter), say(word)) for code, letter, word in (
        ("CK", "R · Re", N_("King")), ("CQ", "D · Donna", N_("Queen")), ("CN", "C · Cavallo", N_("Knight")),
        ("CJ", "F · Fante", N_("Jack"))))
    numbers = (Face("B7", verbatim("VII = 7")), Face("S10", verbatim("X = 10")))
    trumps = (Face("T21", verbatim("Tarocchi")), Face("M", verbatim("Matto")))
    return Section("glossary", say(N_("Italian words and card names")), say(N_("Glossary")), "", (
        Cards((Group(suits, say(N_("The four suits"))), Group(court, say(N_("Court cards: letter and name")))),
              width=68),
        Cards((Group(numbers, say(N_("Swords and Batons: Roman numerals"))),
               Group(trumps, say(N_("The trumps and the Fool")))), width=68),
        Para(say(N_("Tarocchi (or trionfi): the 21 trumps, numbered on their faces. Matto: the Fool, "
                    "card 0, with no suit and no rank."))),
        Para(say(N_("Presa: a trick. Rispondere: to follow suit. Tagliare: to trump a suit you do not "
                    "hold. Mazziere: the dealer. Scarto: the discard, and the name of the three-player "
                    "game."))),
    ))


def _tips(rules: Ruleset) -> Section:
    """The strategy basics of each game, as the rules of thumb of the AI and the
    hint's reasons put them (engine.ai.fast, engine.ai.reasons)."""
    if rules.name == "scarto":
        blocks: tuple[Block, ...] = (
            Para(say(N_("Each for themselves: every point you let go feeds one of two opponents, so take "
                        "tricks with the cheapest card that is sure to win them."))),
            Cards((
                Group((Face("T20", mark=GOLD), Face("T21")), say(N_("Trump 20 beats 21; 21 is worth 1")),
                      fan=True, spread=0.6),
                Group(_faces(("SQ", "CN")), say(N_("Bank Queens and Knights")),
                      fan=True, spread=0.6),
                Group((Face("M", mark=GOLD),), say(N_("The Matto: 4 for you"))),
            )),
            Para(say(N_("At the exchange, bank court cards that could be taken, or lay aside a short suit "
                        "to trump it later. Counting in threes, a pile of low cards is worth little: the "
                        "points are in the Kings, Queens, Knights, and trumps 1 and 20."))),
            Para(say(N_("Second hand low. Keep the Matto for a trick you cannot win. Once the trumps are "
                        "out, your highest card of a suit is master: lead it.")), colour="gold"),
        )
    else:
        blocks = (
            Para(say(N_("Play for your partner (North): when your side's trick is sure, give it points; "
                        "when it is not, second hand low, and let your partner play last."))),
            Cards((
                Group((Face("T1", mark=GOLD), Face("T21", mark=GOLD), Face("M", mark=GOLD), Face("CK")),
                      say(N_("Worth 5: trumps 1 and 21, the Matto, Kings")), fan=True, spread=0.6),
                Group(_faces(("SQ", "CN")), say(N_("Discard Queens and Knights you might lose")),
                      fan=True, spread=0.6),
            )),
            Para(say(N_("Count the trumps: 21 in all, and the dealer says how many were discarded. When "
                        "none is still to be played, your highest card of a suit is master. Void a short suit in "
                        "the discard to trump it."))),
            Para(say(N_("Keep the Matto for a trick you cannot win: it saves a better card and still "
                        "counts 5 for your side. Save trump 1 from a higher trump.")), colour="gold"),
        )
    return Section("tips", say(N_("Playing well: first tips")), say(N_("Tips")), "", blocks)


def outcome_of(rules: Ruleset, outcome: Outcome, totals: Sequence[int]) -> Say:
    return Say(game=rules.name, outcome=(outcome.winners, outcome.losers, tuple(totals)))


SECTIONS = {
    "piedicavallo": (_pack, _faces_section, _ranks, _points, _deal, _discard, _play, _scoring_p, _game_p,
                     _glossary, _tips),
    "scarto": (_pack, _faces_section, _ranks, _points, _deal, _discard, _play, _scoring_s, _game_s,
               _glossary, _tips),
}


def all_says(section: Section) -> list[Say]:
    """Every text of a section (for tests: each is worded in every language)."""
    out: list[Say] = [section.title, section.tab]
    for b in section.blocks:
        if isinstance(b, Para):
            out.append(b.text)
        elif isinstance(b, Cards):
            for g in b.groups:
                out += [x for x in (g.caption, g.note) if x is not None]
                for f in g.cards:
                    out += [x for x in (f.top, f.bottom) if x is not None]
        elif isinstance(b, Seats):
            out += [*b.names, *b.counts, *(r for r in b.roles if r), *([b.caption] if b.caption else [])]
            if b.beside is not None:
                out += [g.caption for g in b.beside.groups if g.caption]
        elif isinstance(b, Scores):
            out += [*b.header, *(r[0] for r in b.rows), b.total[0], b.result]
    return out


__all__ = ["Say", "Face", "Group", "Cards", "Para", "Seats", "Scores", "Section", "sections", "words",
           "strongest_first", "never_discard"]
