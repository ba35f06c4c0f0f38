"""Cards, suits and scoring formulas in words, for the rule book (:mod:`.rulebook`).

A formula is read from its parse tree: a chain of ``cond ? a : b`` becomes cases, a
comparison of the bid and the tricks taken a sentence (``the bid is made``), any other
comparison or sum is written with the names in words (``10 + 5 × (bid − 1)``).
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from typing import TYPE_CHECKING

from ..cards import Card, Rank, Suit
from ..i18n import mark, tr, trc

if TYPE_CHECKING:  # pragma: no cover
    from .variant import Variant

_RANKS = {
    Rank.TWO: mark("two"), Rank.THREE: mark("three"), Rank.FOUR: mark("four"), Rank.FIVE: mark("five"),
    Rank.SIX: mark("six"), Rank.SEVEN: mark("seven"), Rank.EIGHT: mark("eight"), Rank.NINE: mark("nine"),
    Rank.TEN: mark("ten"), Rank.JACK: mark("jack"), Rank.QUEEN: mark("queen"), Rank.KING: mark("king"),
    Rank.ACE: mark("ace"),
}
_OF_SUIT = {
    Suit.SPADES: mark("the {rank} of spades"), Suit.HEARTS: mark("the {rank} of hearts"),
    Suit.DIAMONDS: mark("the {rank} of diamonds"), Suit.CLUBS: mark("the {rank} of clubs"),
}
_SUITS = {Suit.SPADES: mark("spades"), Suit.HEARTS: mark("hearts"), Suit.DIAMONDS: mark("diamonds"),
          Suit.CLUBS: mark("clubs")}


def rank_name(rank: Rank) -> str:
    """``six``, ``ace``."""
    return tr(_RANKS[rank])


def suit_name(suit: Suit | None) -> str:
    """``spades`` (``no trump`` for None)."""
    return tr("no trump") if suit is None else tr(_SUITS[suit])


def card_name(card: Card) -> str:
    """``the six of spades``, ``a joker``."""
    if card.is_joker:
        return tr("a joker")
    assert card.rank is not None and card.suit is not None
    return tr(_OF_SUIT[card.suit], rank=rank_name(card.rank))


def card_names(cards: tuple[Card, ...]) -> str:
    """Card names joined: ``the six of spades and the six of clubs``."""
    return join([card_name(c) for c in cards])


def join(items: list[str]) -> str:
    """``a, b and c``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return tr("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


# ---------------------------------------------------------------- formulas

_NAMES = {
    "bid": mark("bid"), "taken": mark("taken"), "cards": mark("cards"), "players": mark("players"),
    "deal": mark("deal"), "deals": mark("deals"), "set": mark("set"), "set_deal": mark("set_deal"),
    "set_deals": mark("set_deals"), "deck": mark("deck"), "made": mark("made"), "total": mark("total"),
    "is_dealer": mark("is_dealer"), "set_best": mark("set_best"), "set_total": mark("set_total"),
    "set_made": mark("set_made"), "set_all_made": mark("set_all_made"), "max_cards": mark("max_cards"),
    "made_count": mark("made_count"), "zeros_in_row": mark("the player's run of zero bids"),
}
#: what each name of a formula is, for the key under the scoring rules
NAME_MEANINGS = {
    "bid": mark("the player's bid"), "taken": mark("the tricks the player took"),
    "cards": mark("the cards each player holds in the deal"), "players": mark("the number of players"),
    "deal": mark("the deal's number in the game"), "deals": mark("the number of deals in the game"),
    "set": mark("the set's number"), "set_deal": mark("the deal's number in its set"),
    "set_deals": mark("the number of deals in the set"), "deck": mark("the cards in the pack"),
    "made": mark("1 when the bid is made, else 0"), "total": mark("the player's total before the deal"),
    "is_dealer": mark("1 for the dealer, else 0"),
    "set_best": mark("the player's best deal score of the set"),
    "set_total": mark("the player's points in the set"),
    "set_made": mark("the bids the player made in the set"),
    "set_all_made": mark("1 when the player made every bid of the set, else 0"),
    "max_cards": mark("the pack's cards divided by the players, rounded down"),
    "made_count": mark("how many players made their bid in the deal"),
    "zeros_in_row": mark("the player's bids of 0 in a row in the deals just before this one"),
}
_OPS = {"*": "×", "//": "÷", "%": "mod", "-": "−", "+": "+"}
_COMPARE = {
    "==": mark("{a} is {b}"), "!=": mark("{a} is not {b}"), "<": mark("{a} is less than {b}"),
    "<=": mark("{a} is at most {b}"), ">": mark("{a} is more than {b}"), ">=": mark("{a} is at least {b}"),
}
_PHRASES = {
    ("taken", "==", "bid"): mark("the bid is made"),
    ("taken", "!=", "bid"): mark("the bid is not made"),
    ("taken", ">", "bid"): mark("more tricks are taken than bid"),
    ("taken", "<", "bid"): mark("fewer tricks are taken than bid"),
    ("bid", "==", "0"): mark("the bid is 0 (a pass)"),
    ("bid", ">=", "1"): mark("the bid is not a pass"),
    ("bid", ">", "0"): mark("the bid is not a pass"),
    ("taken", "==", "0"): mark("no trick is taken"),
    ("taken", ">", "0"): mark("at least one trick is taken"),
    ("bid", "==", "cards"): mark("the bid is every trick of the deal"),
    ("taken", "==", "cards"): mark("every trick is taken"),
    ("made", "==", "1"): mark("the bid is made"),
    ("is_dealer", "==", "1"): mark("the player is the dealer"),
    ("made_count", "==", "0"): mark("nobody made their bid in the deal"),
    ("made_count", ">", "0"): mark("somebody made their bid in the deal"),
}
_FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}
_TRUTHS = {"made": mark("the bid is made"), "set_all_made": mark("every bid of the set is made"),
           "is_dealer": mark("the player is the dealer")}


def formula_tree(source: str) -> Any:
    """The parse tree of a formula's source (the shipped trees, else Lark)."""
    from .formula import parse_tree

    return parse_tree(source)


def _token(t: Any) -> str | None:
    return str(t) if isinstance(t, str) else None


def name_word(name: str) -> str:
    """A formula name as the reader sees it (``bid``; a parameter stays as written)."""
    return tr(_NAMES[name]) if name in _NAMES else name


class Words:
    """Writes a formula's parts in words; ``params`` are shown with their values."""

    def __init__(self, params: dict[str, int]) -> None:
        self.params = params

    def expr(self, t: Any, parent: int = 0) -> str:
        """An arithmetic expression: ``10 + 5 × (bid − 1)``; ``parent`` is the binding around it."""
        tok = _token(t)
        if tok is not None:
            if tok in self.params:
                return tr("`{name}` ({value})", name=tok, value=_num(self.params[tok]))
            return name_word(tok) if not tok.isdigit() else tok
        kids = t.children
        if t.data == "binop" and str(kids[1]) in _OPS:
            op = str(kids[1])
            mine = 1 if op in "+-" else 2
            text = f"{self.expr(kids[0], mine)} {_OPS[op]} {self.expr(kids[2], mine + (op == '-'))}"
            return f"({text})" if mine < parent or (mine == parent and parent > 0 and op == "-") else text
        if t.data == "sign":
            inner = self.expr(kids[1], 3)
            return inner if str(kids[0]) == "+" else "−" + inner
        if t.data == "call":
            args = [] if kids[1] is None else kids[1].children
            return f"{kids[0]}({', '.join(self.expr(a) for a in args)})"
        if t.data == "ifelse":
            return tr("({a} if {cond}, else {b})", cond=self.cond(kids[0]), a=self.expr(kids[1]),
                      b=self.expr(kids[2]))
        return f"({self.cond(t)})"

    def cond(self, t: Any) -> str:
        """A condition in words: ``the bid is made and no trick is taken``."""
        tok = _token(t)
        if tok is not None:
            return tr(_TRUTHS[tok]) if tok in _TRUTHS else tr("{a} is not 0", a=self.expr(t))
        kids = t.children
        if t.data == "and_":
            return tr("{a} and {b}", a=self.cond(kids[0]), b=self.cond(kids[1]))
        if t.data == "or_":
            return tr("{a} or {b}", a=self.cond(kids[0]), b=self.cond(kids[1]))
        if t.data == "not_":
            return tr("not ({a})", a=self.cond(kids[0]))
        if t.data == "binop" and str(kids[1]) in _COMPARE:
            a, op, b = _token(kids[0]), str(kids[1]), _token(kids[2])
            phrase = _PHRASES.get((a, op, b)) or _PHRASES.get((b, _FLIP[op], a))  # type: ignore[arg-type]
            if phrase is not None:
                return tr(phrase)
            return tr(_COMPARE[op], a=self.expr(kids[0]), b=self.expr(kids[2]))
        return tr("{a} is not 0", a=self.expr(t))


class Case(NamedTuple):
    """One case of a formula: ``when`` (None: in every other case) and what it gives."""

    when: str | None
    value: str
    cases: tuple[Case, ...] = ()


def formula_cases(source: str, params: dict[str, int]) -> tuple[Case, ...]:
    """A formula as its cases: ``taken == bid ? 10 : -bid`` → (the bid is made: 10), (else: −bid)."""
    words = Words(params)

    def chain(t: Any) -> tuple[Case, ...]:
        out: list[Case] = []
        while not isinstance(t, str) and t.data == "ifelse":
            cond, a, t = t.children
            inner = chain(a) if not isinstance(a, str) and a.data == "ifelse" else ()
            out.append(Case(words.cond(cond), "" if inner else words.expr(a), inner))
        out.append(Case(None, words.expr(t)))
        return tuple(out)

    return chain(formula_tree(source))


def _num(n: int) -> str:
    return str(n) if n >= 0 else "−" + str(-n)


def number(n: int) -> str:
    """A number as printed in the book: the minus sign is a real one (−30)."""
    return _num(n)


def kind_name(kind: str) -> str:
    """A deal kind's name: those the bundled variants use in the reader's language, any other
    as the variant file has it."""
    names = {"normal": trc("deal kind", "normal"), "blind": trc("deal kind", "blind"),
             "no-trump": trc("deal kind", "no-trump"), "hidden": trc("deal kind", "hidden"),
             "minimum": trc("deal kind", "minimum"), "maximum": trc("deal kind", "maximum")}
    return names.get(kind, kind)


def kind_title(v: "Variant", kind: str) -> str:
    """A deal kind's name with its multiplier: ``blind ×2``."""
    k = v.kinds.get(kind)
    name = kind_name(kind)
    return f"{name} ×{k.multiplier}" if k is not None and k.multiplier != 1 else name


def _short_cards(cards: Iterable[object]) -> str:
    return " ".join(str(c) for c in cards)


def pack_text(variant: Variant) -> str:
    """A short description of the pack: ``52``, ``36, 6S is joker``, ``36 (+2 jokers, −6S 6C)``."""
    d = variant.deck
    extra = []
    if d.jokers:
        extra.append(f"+{d.jokers} joker" + ("s" if d.jokers > 1 else ""))
    if d.remove:
        extra.append("−" + _short_cards(d.remove))
    text = (f"2 × {d.pack}" if d.packs > 1 else str(d.pack)) + (f" ({', '.join(extra)})" if extra else "")
    if d.per_player:
        text += f", the top {d.per_player} a player"
    if d.designated_jokers:
        verb = "is joker" if len(d.designated_jokers) == 1 else "are jokers"
        text += f", {_short_cards(d.designated_jokers)} {verb}"
    for w in variant.wild:
        if w.ordinary:
            text += f", {_short_cards(w.cards)} special"
    return text
