"""A fixed action space and a fixed observation encoding for one variant and table size.

:class:`ActionSpace` numbers every action a game of the variant can ever offer: every bid,
every trump choice, every call of an auction (when a deal has one), every card, and every
declaration of a joker or special card (``JK demand H``, ``7S highest``, ``JK as QS``). The
numbering depends only on the variant and the number of players, so an agent's output layer
is the same in every deal.

:class:`Observation` encodes what one seat knows as a flat vector, read straight from the
game's public properties and its play kernel (hands, cards played, the trick, tricks taken,
``legal()``): never through a :class:`~updown_dsl.engine.SeatView`. Its layout is data:
:meth:`Observation.spec` lists the blocks (name, offset, size, meaning), and docs/research.md
shows them. Seats in the vector are relative to the observer: block row 0 is the observer,
row 1 the seat on its left, and so on.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..actions import Action, Bid, Call, ChooseTrump, Play, SUITED_DECLARATIONS
from ..cards import Card, Suit
from ..engine import Game, Phase
from ..engine.tables import SUITS, bit_indices, card_table
from ..lang.schedule import for_players
from ..lang.variant import Variant

#: Trump choices and suit blocks: the four suits in the engine's order, then none.
SUIT_ORDER: tuple[Suit | None, ...] = (*SUITS, None)
#: Declarations of a declared lead that shape the trick (``lead_mode`` block), then none.
LEAD_MODES: tuple[str | None, ...] = ("demand", "high", "takes", "highest", "free", "open", "low", "as", None)
PHASES: tuple[Phase, ...] = tuple(Phase)
#: Bidding styles whose bids the other players see only later (sealed: from the play) or never.
_SEALED = "sealed"
_HIDDEN = "hidden"


def max_tricks(variant: Variant, players: int) -> int:
    """The most cards a hand holds in any deal of the schedule."""
    return max(d.cards for d in Game(variant, players, seed=0, auto_deal=False).deals)


def _wild_plays(card: Card, lead: Sequence[str], follow: Sequence[str], impersonate: bool,
                plain_cards: Sequence[Card]) -> list[Play]:
    out: list[Play] = []
    for decl in lead:  # a lead names the suit of the suited declarations
        if decl in SUITED_DECLARATIONS:
            out.extend(Play(card, decl, s) for s in SUITS)
        else:
            out.append(Play(card, decl))
    out.extend(Play(card, decl) for decl in follow)
    if impersonate:
        out.extend(Play(card, "as", None, c) for c in plain_cards)
    return out


class ActionSpace:
    """Every action of a variant at a table size, numbered (see the module).

    The layout: ``Bid(0) .. Bid(max)``, then the five trump choices (S H D C, none), then the
    calls of an auction (``Call(0)``, then ``Call(t, suit)`` for t = 1..max and each suit of
    :data:`SUIT_ORDER`; only when a deal of the variant has an auction), then one plain play
    per card of the pack in pack order, then every declared play of each wild card.
    """

    __slots__ = ("variant", "players", "max_tricks", "actions", "index", "bid_base", "trump_base",
                 "call_base", "card_base", "decl_base", "size", "has_auction")

    def __init__(self, variant: Variant, players: int) -> None:
        game = Game(variant, players, seed=0, auto_deal=False)
        # every card wild in some kind of deal has its declared plays (not only the first deal's)
        table = card_table(for_players(variant, players))
        self.variant = variant
        self.players = players
        self.max_tricks = top = max(d.cards for d in game.deals)
        self.has_auction = any(k.bidding == "auction" for k in variant.kinds.values())
        actions: list[Action] = [Bid(t) for t in range(top + 1)]
        self.bid_base = 0
        self.trump_base = len(actions)
        actions += [ChooseTrump(s) for s in SUIT_ORDER]
        self.call_base = len(actions)
        if self.has_auction:
            actions.append(Call(0))
            actions += [Call(t, s) for t in range(1, top + 1) for s in SUIT_ORDER]
        self.card_base = len(actions)
        actions += list(dict.fromkeys(table.plays))  # (two packs: a card's two copies are one action)
        self.decl_base = len(actions)
        plain_cards = [c for i, c in enumerate(table.cards) if table.suit_of[i] >= 0]
        seen = set(actions)
        for i, card in enumerate(table.cards):
            w = table.wild_of[i]
            if w is None:
                continue
            for p in _wild_plays(card, w.lead, w.follow, w.impersonate, plain_cards):
                if p not in seen:
                    seen.add(p)
                    actions.append(p)
        self.actions: tuple[Action, ...] = tuple(actions)
        self.index: dict[Action, int] = {a: k for k, a in enumerate(actions)}
        self.size = len(actions)

    def legal_ids(self, game: Game) -> list[int]:
        """The numbers of the legal actions of the player to act, in ``legal_actions()`` order."""
        if game.phase is Phase.PLAY and game.kernel.rules.plain and not game.table.seconds:
            # (one pack: a card's number is its index past the bids; two packs number each
            # card once, below)
            m = game.kernel.legal()
            base = self.card_base
            out = []
            while m:
                low = m & -m
                out.append(base + low.bit_length() - 1)
                m ^= low
            return out
        index = self.index
        return [index[a] for a in game.legal_actions()]

    def __len__(self) -> int:
        return self.size


class Block(NamedTuple):
    """One block of the observation vector."""

    name: str
    offset: int
    size: int
    meaning: str


class Observation:
    """The observation encoding of a variant at a table size (see the module).

    :meth:`encode` writes a seat's observation into a float vector (a ``list`` or a NumPy
    array) of :attr:`size` zeros; :meth:`spec` is its layout.
    """

    __slots__ = ("players", "cards", "top", "blocks", "size", "kinds", "has_auction", "_off", "_turned")

    def __init__(self, variant: Variant, players: int, space: ActionSpace | None = None) -> None:
        space = space or ActionSpace(variant, players)
        game = Game(variant, players, seed=0, auto_deal=False)
        n, c, top = players, game.table.size, space.max_tricks
        self.players, self.cards, self.top = n, c, top
        self.kinds = tuple(sorted(variant.kinds))
        self.has_auction = space.has_auction
        self._turned = game.table.index
        layout: list[tuple[str, int, str]] = [
            ("phase", len(PHASES), "one-hot: " + " ".join(p.value for p in PHASES)),
            ("hand", c, "the observer's cards now (pack order); in a trump choice, the cards the chooser has seen"),
            ("played", c, "every card played in this deal, finished tricks and the current one"),
            ("trick", n * c, "the current trick: row r (relative seat r) one-hot, the card that seat played"),
            ("leader", n, "relative seat leading the current trick (one-hot; zero before the play)"),
            ("trump", 5, "trump suit one-hot S H D C none"),
            ("turned", c, "the card turned for trump, if one was and it is in the pack"),
            ("bids", n * (top + 2), f"row r: relative seat r's bid one-hot 0..{top}, last column: no bid (or not shown)"),
            ("taken", n * (top + 1), f"row r: tricks relative seat r took this deal, one-hot 0..{top}"),
            ("lead_mode", len(LEAD_MODES), "declaration of a declared lead that shapes the trick, one-hot, last: none"),
            ("led", 5, "suit the trick asks for, one-hot S H D C none"),
            ("dealer", n, "relative seat of the dealer, one-hot"),
            ("cards", 1, f"cards per hand in this deal / {top}"),
            ("kind", len(self.kinds), "deal kind one-hot: " + " ".join(self.kinds)),
            ("totals", n, "row r: relative seat r's game total / 100"),
        ]
        if self.has_auction:
            layout.append(("calls", n * (top + 2), "row r: relative seat r's call, tricks one-hot 0..max, last: no call"))
            layout.append(("call_suits", n * 5, "row r: the suit of seat r's call, one-hot S H D C none"))
        blocks = []
        off = 0
        for name, size, meaning in layout:
            blocks.append(Block(name, off, size, meaning))
            off += size
        self.blocks = tuple(blocks)
        self.size = off
        self._off = {b.name: b.offset for b in blocks}

    def spec(self) -> list[dict[str, object]]:
        """The layout as data: one ``{"name", "offset", "size", "meaning"}`` per block."""
        return [b._asdict() for b in self.blocks]

    def encode(self, game: Game, seat: int, out: list[float] | object) -> None:
        """Write ``seat``'s observation of ``game`` into ``out`` (zeros, :attr:`size` long)."""
        o = out  # a list or a NumPy array: both take o[i] = x
        n, top = self.players, self.top
        off = self._off
        k = game.kernel
        phase = game.phase
        o[off["phase"] + PHASES.index(phase)] = 1  # type: ignore[index]
        table = game.table
        # the observer's cards: in a trump choice the chooser has seen only some of them
        base = off["hand"]
        if phase is Phase.TRUMP:
            if seat == game.to_act:
                for i in table.indices(game.chooser_view()):
                    o[base + i] = 1  # type: ignore[index]
        else:
            m = table.canonical(k.hands[seat])  # (two packs: which copy is held is not seen)
            while m:
                low = m & -m
                o[base + low.bit_length() - 1] = 1  # type: ignore[index]
                m ^= low
        order = k.order
        base = off["played"]
        if table.seconds:  # two packs: the cards played, whichever copies
            order = [table.index[table.cards[i]] for i in order]
            for i in bit_indices(table.canonical(sum(1 << i for i in k.order))):
                o[base + i] = 1  # type: ignore[index]
        else:
            for i in order:
                o[base + i] = 1  # type: ignore[index]
        count = k.count
        c = self.cards
        if count:
            base = off["trick"]
            leader = k.leader
            for j, i in enumerate(order[len(order) - count:]):
                r = (leader + j - seat) % n
                o[base + r * c + i] = 1  # type: ignore[index]
        if phase is Phase.PLAY and k.leader >= 0:
            o[off["leader"] + (k.leader - seat) % n] = 1  # type: ignore[index]
        o[off["trump"] + (k.trump if k.trump >= 0 else 4)] = 1  # type: ignore[index]
        if game.turned is not None:
            ti = self._turned.get(game.turned)
            if ti is not None:
                o[off["turned"] + ti] = 1  # type: ignore[index]
        bidding = game.kind.bidding
        shown = not (bidding == _HIDDEN or (bidding == _SEALED and phase is not Phase.PLAY))
        base = off["bids"]
        for s, b in enumerate(game.bids):
            r = (s - seat) % n
            if b is None or (r and not shown):
                o[base + r * (top + 2) + top + 1] = 1  # type: ignore[index]
            else:
                o[base + r * (top + 2) + b] = 1  # type: ignore[index]
        base = off["taken"]
        for s, t in enumerate(k.taken):
            o[base + ((s - seat) % n) * (top + 1) + t] = 1  # type: ignore[index]
        mode = k.lead_mode if count else None
        o[off["lead_mode"] + LEAD_MODES.index(mode if mode in LEAD_MODES else None)] = 1  # type: ignore[index]
        o[off["led"] + (k.led if count and k.led >= 0 else 4)] = 1  # type: ignore[index]
        o[off["dealer"] + (game.dealer - seat) % n] = 1  # type: ignore[index]
        o[off["cards"]] = game.deal.cards / top  # type: ignore[index]
        o[off["kind"] + self.kinds.index(game.deal.kind)] = 1  # type: ignore[index]
        base = off["totals"]
        for s, t in enumerate(game.totals):
            o[base + (s - seat) % n] = t / 100  # type: ignore[index]
        if self.has_auction:
            base, sbase = off["calls"], off["call_suits"]
            for s, call in enumerate(game.calls):
                r = (s - seat) % n
                if call is None:
                    o[base + r * (top + 2) + top + 1] = 1  # type: ignore[index]
                    continue
                o[base + r * (top + 2) + call.tricks] = 1  # type: ignore[index]
                o[sbase + r * 5 + SUIT_ORDER.index(call.suit)] = 1  # type: ignore[index]

    def vector(self, game: Game, seat: int) -> list[float]:
        """``seat``'s observation as a new list."""
        out = [0.0] * self.size
        self.encode(game, seat, out)
        return out
