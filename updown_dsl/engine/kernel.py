"""The play kernel: the cards of one deal, and the only code that knows how a card is played.

A :class:`PlayKernel` holds a deal's hands (bit sets over the card table), the cards played
(a :class:`~updown_dsl.engine.state.DealLog`), the trick on the table and the tricks taken.
It says which cards the player to act may play (:meth:`PlayKernel.legal`, a bit set), why a
card may not be played (:meth:`PlayKernel.refusal`), plays a card (:meth:`PlayKernel.play`,
unchecked, as python-chess's ``push``) and ends the trick. Every card a game plays, checks,
replays for a checker or plays out for a search goes through these methods; nothing else
in the package knows the follow, trump, lead or over-trump rules or who wins a trick.

Who wins: every card on the table has a *key*, its strength in this trick, and the first
card of the highest key wins. A plain card's key is one lookup in the card table's row of
(trump, led suit) and never changes, so a plain trick keeps its best key as the cards
fall. A declared card (a joker, a special card) gets its key from its declaration
(:meth:`PlayKernel.key`), and in a trick holding one a key can change as later cards fall
(the suit named by the first card after an open lead, a high joker led in a plain suit
beaten by a later trump): such a trick works its keys out again after each card, over at
most one card per player.

A card is an index into the card table. With two packs shuffled together each copy of a
card has its own index and the same key, so of two identical cards the first played holds
the trick; with ``deck.identical: later_wins`` the later one does: a card must then only
equal the best key to take the trick (:attr:`PlayKernel.best` is what a card must beat).
"""

from __future__ import annotations

from collections import deque
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Callable, Iterable

from ..actions import Play
from ..cards import Card, Suit
from ..diagnostics import Diagnostic
from ..i18n import tr
from ..lang.variant import WildRules
from .state import DealLog, violation
from .tables import KEY_LED, KEY_SUPER, KEY_TRUMP, SUIT_ID, SUITS, bit_indices

if TYPE_CHECKING:
    from .plan import TablePlan
    from .tables import CardTable

#: Keys of declared plays, above any plain card: ``highest`` wins outright; high jokers
#: are ordered by position (later or earlier wins, by ``two_high``).
KEY_WIN = 1 << 20
KEY_HIGH = 5000


class PlayRules:
    """The rules of play of one table (a variant for a number of players) as the kernel reads
    them, worked out once: shared by a game's kernel and every copy of it."""

    __slots__ = ("table", "players", "must_follow", "must_trump", "lead_trump", "must_overtrump", "restricted",
                 "has_wild", "plain", "next_seat", "bit", "suit_of", "suit_mask", "nonjoker", "keytabs", "plays_get",
                 "make_plays", "tie", "copy_wins")

    table: CardTable
    players: int
    must_follow: bool
    must_trump: bool
    lead_trump: str
    """``any``, ``not_first_trick`` or ``when_broken``: when a trump may be led."""
    must_overtrump: bool
    restricted: bool
    """A lead or over-trump rule applies."""
    has_wild: bool
    plain: bool
    """No wild card, no joker and no lead or over-trump rule: every card is a plain one."""
    next_seat: tuple[int, ...]
    bit: tuple[int, ...]
    suit_of: tuple[int, ...]
    suit_mask: tuple[int, ...]
    nonjoker: int
    keytabs: tuple[tuple[int, ...], ...]
    plays_get: Callable[[int], tuple[Play, ...] | None]
    """The card table's kept listing of a bit set of plain cards, if it has one."""
    make_plays: Callable[[int], tuple[Play, ...]]
    """The card table's listing of a bit set it has not kept (:meth:`CardTable.make_plays`)."""
    tie: int
    """1 when the later of two identical cards wins (two packs, ``later_wins``), else 0: what
    a winning key is lowered by to give :attr:`PlayKernel.best`."""
    copy_wins: bool
    """A wild card played ``as`` another beats the real card (:attr:`WildRules.copy_wins`)."""

    def __init__(self, plan: TablePlan, table: CardTable | None = None) -> None:
        t = plan.table if table is None else table  # (a kind of deal may have its own wild cards)
        self.table = t
        self.players = plan.players
        self.must_follow = plan.must_follow
        self.must_trump = plan.must_trump
        self.lead_trump = plan.lead_trump
        self.must_overtrump = plan.must_overtrump
        self.restricted = plan.restricted
        self.has_wild = bool(t.wild_mask)
        self.plain = not self.has_wild and not t.joker_mask and not plan.restricted
        self.next_seat = plan.next_seat
        self.bit = t.bit
        self.suit_of = t.suit_of
        self.suit_mask = t.suit_mask
        self.nonjoker = t.full_mask & ~t.joker_mask
        self.keytabs = t.keys
        self.plays_get = t.plays_cache.get
        self.make_plays = t.make_plays
        self.tie = int(t.copies > 1 and plan.variant.deck.identical == "later_wins")
        self.copy_wins = any(w is not None and w.copy_wins for w in t.wild_of)


class PlayKernel:
    """The cards of one deal (see the module). The attributes are public and read-only
    to everyone but the kernel: read them, change them only through the methods.

    :param plan: the rules of the variant for the table size.
    :param tricks: the number of tricks (cards per hand) in the deal.
    :param rules: the deal's rules of play (default: the table's; a kind of deal with wild
        cards of its own has its own, :attr:`~updown_dsl.engine.plan.DealPlan.play`).
    """

    __slots__ = (
        "rules",
        # the deal
        "tricks", "hands", "log", "order", "decl", "winners", "taken", "trump", "keyrow", "keytabs", "super_card",
        # the trick
        "count", "leader", "to_act", "led", "lead_mode", "lead_wild", "keys", "best", "winner", "general",
        # memos of the position, None when it changed
        "legal_mask", "plays_memo",
    )

    rules: PlayRules
    """The rules of play of the table, the same in every deal of a game."""
    tricks: int
    """Tricks in the deal (the cards of each hand)."""
    hands: list[int]
    """Each seat's cards now, a bit set over the card table."""
    log: DealLog
    order: list[int]
    """The card index of every card played in the deal, in order (``log.order``)."""
    decl: dict[int, Play]
    """The plays with a declaration, by position in :attr:`order` (``log.decl``)."""
    winners: list[int]
    """The winner of each finished trick (``log.winners``)."""
    taken: list[int]
    """Tricks taken by each seat."""
    trump: int
    """The trump suit's id (0..3 in :data:`~updown_dsl.engine.tables.SUITS` order), -1 for none."""
    keyrow: int
    """Where this trump's rows start in :attr:`keytabs`: a plain card's key row for led suit
    ``led`` is ``keytabs[keyrow + led]``."""
    keytabs: tuple[tuple[int, ...], ...]
    """The key rows of this deal: the table's (:attr:`PlayRules.keytabs`), or the same with the
    deal's super trump above every trump."""
    super_card: int
    """The card index of the deal's super trump (``trump.super_trump``), -1 for none."""
    count: int
    """Cards on the table in the current trick."""
    leader: int
    to_act: int
    led: int
    """The suit id the trick asks for (-1: none yet, or nothing asked)."""
    lead_mode: str | None
    """The declaration of a declared lead that changes what the others must play."""
    lead_wild: WildRules | None
    keys: tuple[int, ...]
    """The key row of the trick (plain tricks: each card index's strength)."""
    best: int
    """The key a card must beat to take the trick: the highest key on the table (less one
    when the later of two identical cards wins, :attr:`PlayRules.tie`)."""
    winner: int
    """The seat holding the trick so far."""
    general: bool
    """A declared card is in the trick (its keys are worked out again after each card)."""
    legal_mask: int | None
    plays_memo: tuple[Play, ...] | None

    def __init__(self, plan: TablePlan, tricks: int, rules: PlayRules | None = None) -> None:
        self.rules = play_rules(plan) if rules is None else rules
        self.reset(tricks)

    def reset(self, tricks: int, rules: PlayRules | None = None) -> None:
        """Start a new deal of ``tricks`` cards a hand: no cards yet, no trump, a new log (the
        last deal's log stays with its result); ``rules``: the deal's rules of play, where its
        kind of deal has wild cards of its own."""
        if rules is not None:
            self.rules = rules
        n = self.rules.players
        self.tricks = tricks
        self.hands = [0] * n
        self.log = log = DealLog(self.rules.table, n)
        self.order = log.order
        self.decl = log.decl
        self.winners = log.winners
        self.taken = [0] * n
        self.set_trump(-1)
        self.count = 0
        self.leader = self.to_act = self.winner = -1
        self.led = -1
        self.lead_mode = None
        self.lead_wild = None
        self.keys = ()
        self.best = 0
        self.general = False
        self.legal_mask = None
        self.plays_memo = None

    def copy(self) -> PlayKernel:
        """An independent copy (for :meth:`~updown_dsl.engine.Game.clone`)."""
        new = object.__new__(PlayKernel)
        # Slot by slot, but in C: a Python loop over the slots was most of a clone's cost.
        _consume(map(setattr, repeat(new, len(_SLOTS)), _SLOTS, _get_slots(self)))
        new.hands = list(self.hands)
        new.taken = list(self.taken)
        new.log = log = self.log.copy()
        new.order = log.order
        new.decl = log.decl
        new.winners = log.winners
        return new

    # ------------------------------------------------------------------ setting up
    def deal(self, hands: list[int], dealt: list[tuple[int, ...]] | None) -> None:
        """Give each seat its cards: ``hands`` as bit sets, ``dealt`` the card indices in the
        order dealt (None: the cards are not known, as on a score sheet)."""
        self.hands = hands
        self.log.dealt = dealt
        self.legal_mask = self.plays_memo = None  # (changed())

    def set_trump(self, trump: int, super_card: int = -1) -> None:
        """Set the trump suit (a suit id, -1 for none) and the super trump's card index (-1: none;
        only with a trump)."""
        self.trump = trump
        self.keyrow = (trump + 1) * 5 + 1
        self.super_card = super_card = super_card if trump >= 0 else -1
        self.keytabs = self.rules.keytabs if super_card < 0 else self.rules.table.keys_with_super(super_card)

    def begin(self, leader: int) -> None:
        """The play starts: ``leader`` leads the first trick."""
        self.leader = self.to_act = leader
        self.log.first_leader = leader
        self.legal_mask = self.plays_memo = None  # (changed())

    def hold_instead(self, seat: int, held: int, written: int) -> None:
        """Let ``seat`` hold card ``written`` in place of its card ``held``: a record shows the
        player playing a card the hand did not hold, and the deal goes on as written."""
        r = self.rules
        self.hands[seat] ^= r.bit[held] | r.bit[written]
        self.changed()

    def lead_as_written(self, seat: int) -> None:
        """Let ``seat`` lead the trick about to start: a record shows it leading, though
        another player won the last trick or leads by the rules."""
        self.leader = self.to_act = seat
        self.log.led[len(self.winners)] = seat
        self.changed()

    def changed(self) -> None:
        """Forget what was worked out for the position (after a change from outside)."""
        self.legal_mask = None
        self.plays_memo = None

    # ------------------------------------------------------------------ legality
    def legal(self) -> int:
        """The cards the player to act may play without a declaration (a bit set)."""
        mask = self.legal_mask
        if mask is None:
            hand = self.hands[self.to_act]
            r = self.rules
            if r.plain:  # (obliged's plain case: no joker, no declared lead, no restriction)
                mask = self.answers(hand, self.led) if self.count else hand
            else:
                mask = self.obliged(hand)
                if r.restricted:
                    mask = self._restrict(hand, mask)
            self.legal_mask = mask
        return mask

    def obliged(self, hand: int) -> int:
        """The cards of ``hand`` that the follow and trump obligations (and a wild lead's demand)
        let be played now without a declaration; :meth:`legal` adds the lead and over-trump
        rules. This is the rule of following suit, and the only copy of it."""
        ordinary = hand & self.rules.nonjoker
        if not self.count or not ordinary:
            return ordinary
        mode = self.lead_mode
        if mode is not None:
            special = self._answer(ordinary, mode)
            if special >= 0:
                return special
        return self.answers(ordinary, self.led)

    def answers(self, hand: int, led: int) -> int:
        """The cards of ``hand`` (ordinary cards) that may answer a lead of suit ``led``: its
        cards of that suit when it must follow, else its trumps when it must trump, else any;
        any card when no suit is asked for (``led`` -1: a lead, or an open one). A search asks
        it of a lead that has not been made yet."""
        if led < 0:
            return hand
        r = self.rules
        in_suit = hand & r.suit_mask[led]
        if in_suit:
            return in_suit if r.must_follow else hand
        trump = self.trump
        if trump >= 0 and r.must_trump:
            trumps = hand & r.suit_mask[trump]
            if trumps:
                return trumps
        return hand

    def legal_plays(self) -> tuple[Play, ...]:
        """Every play the player to act may make: the legal plain cards in pack order, then the
        declarations of the wild cards in hand."""
        r = self.rules
        if r.plain:
            mask = self.legal_mask
            if mask is None:  # (legal()'s plain case, without its call: listing is half of a card's cost)
                hand = self.hands[self.to_act]
                mask = self.legal_mask = self.answers(hand, self.led) if self.count else hand
            return r.plays_get(mask) or r.make_plays(mask)
        plays = self.plays_memo
        if plays is None:  # declared plays are new objects: list them once per position
            legal = self.legal()
            plays = self.rules.table.plays_of(legal)
            if self.rules.has_wild:
                wild = self.hands[self.to_act] & self.rules.table.wild_mask
                if wild:
                    plays += self._declared_in_hand(wild, legal)
            self.plays_memo = plays
        return plays

    def _answer(self, ordinary: int, mode: str) -> int:
        """Cards that answer a ``highest`` or ``demand`` lead, or -1 for other leads."""
        t = self.rules.table
        trump = self.trump
        if mode == "highest":
            w = self.lead_wild
            assert w is not None
            own = t.suit_of[t.index[w.cards[0]]]
            if w.answer == "highest_of_suit" and own >= 0:
                in_suit = ordinary & t.suit_mask[own]
                return (1 << (in_suit.bit_length() - 1)) if in_suit else ordinary
            if w.answer == "highest_trump" and trump >= 0 and ordinary & t.suit_mask[trump]:
                return 1 << ((ordinary & t.suit_mask[trump]).bit_length() - 1)
            bits = bit_indices(ordinary)
            best = max(t.rank_of[i] for i in bits)
            return sum(1 << i for i in bits if t.rank_of[i] == best)
        if mode == "demand":
            led = self.led
            if led < 0:
                return ordinary
            in_suit = ordinary & t.suit_mask[led]
            if in_suit:
                return 1 << (in_suit.bit_length() - 1)
            w = self.lead_wild
            if w is not None and w.demand_void != "any" and trump >= 0:
                trumps = ordinary & t.suit_mask[trump]
                if trumps:
                    if w.demand_void == "highest_trump":
                        return 1 << (trumps.bit_length() - 1)
                    return trumps
            return ordinary
        return -1

    # -- the lead and over-trump rules
    def _restrict(self, hand: int, legal: int) -> int:
        """``legal`` less what the lead and over-trump rules forbid."""
        trump = self.trump
        if trump < 0:
            return legal
        trumps = self.rules.suit_mask[trump]
        if not self.count:
            if self._trump_lead_barred() and legal & ~trumps:
                return legal & ~trumps
            return legal
        higher = self._higher_trumps(hand)
        if higher:
            return (legal & ~trumps) | (legal & higher) or legal
        return legal

    def _trump_lead_barred(self) -> bool:
        rule = self.rules.lead_trump
        if rule == "not_first_trick":
            return not self.winners
        if rule == "when_broken":
            trump, suit_of = self.trump, self.rules.suit_of
            done = len(self.winners) * self.rules.players
            return not any(suit_of[i] == trump for i in self.order[:done])
        return False

    def _higher_trumps(self, hand: int) -> int:
        """With ``must_overtrump``, and a trump winning the trick so far: the trumps in ``hand``
        that beat it (0 otherwise, or when a wild card is in the trick)."""
        if not self.rules.must_overtrump or self.general or self.best < KEY_TRUMP:
            return 0
        keys, best = self.keys, self.best
        mine = hand & self.rules.suit_mask[self.trump]
        higher = 0
        while mine:
            low = mine & -mine
            i = low.bit_length() - 1
            if keys[i] > best:
                higher |= low
            mine ^= low
        return higher

    # -- declarations
    def _declared_in_hand(self, wild: int, legal: int) -> tuple[Play, ...]:
        """The declared plays of the wild cards in ``wild`` (a subset of the hand)."""
        t = self.rules.table
        leading = not self.count
        extra: list[Play] = []
        for i in bit_indices(wild):
            w = t.wild_of[i]
            if w is not None:
                extra.extend(self.declared_plays(i, w, leading, legal))
        return tuple(extra)

    def declared_plays(self, i: int, w: WildRules, leading: bool, legal: int) -> list[Play]:
        """The declarations wild card ``i`` (of rules ``w``) may be played with now, given the
        ``legal`` plain cards."""
        t = self.rules.table
        card = t.cards[i]
        out: list[Play] = []
        if leading:
            for decl in w.lead:
                if decl in ("demand", "highest") and not self._demand_allowed(w):
                    continue
                if decl in ("demand", "high", "takes"):
                    out.extend(Play(card, decl, s) for s in SUITS)
                else:
                    out.append(Play(card, decl))
        elif w.exempt or (not w.ordinary and self._no_obligation()) or (legal >> i) & 1:
            out.extend(Play(card, decl) for decl in w.follow)
        if w.impersonate:
            rest = self.hands[self.to_act] & ~(1 << i)
            for ci, c in enumerate(t.cards):
                if c.is_joker or t.suit_of[ci] < 0:
                    continue
                if leading or w.exempt or (self.obliged((1 << ci) | rest) >> ci) & 1:
                    out.append(Play(card, "as", None, c))
        return out

    def _no_obligation(self) -> bool:
        """The player holds neither the led (or demanded) suit nor a trump they must play."""
        t = self.rules.table
        led = self.led
        if self.lead_mode == "highest" or led < 0:
            return self.lead_mode != "highest"
        hand = self.hands[self.to_act] & ~t.joker_mask
        if hand & t.suit_mask[led]:
            return False
        trump = self.trump
        return not (trump >= 0 and self.rules.must_trump and hand & t.suit_mask[trump])

    def _demand_allowed(self, w: WildRules) -> bool:
        if w.lead_on == "never":
            return False
        if w.lead_on == "first_trick":
            return not self.winners
        return True

    # ------------------------------------------------------------------ playing
    def play(self, i: int, declared: Play | None = None) -> bool:
        """Play card ``i`` for the player to act, unchecked (the caller has checked it against
        :meth:`legal` or :meth:`refusal`, or plays a card as a record shows it): without a
        declaration, or a wild card with the declaration of ``declared``. True when it was
        the last card of the deal."""
        seat = self.to_act
        r = self.rules
        self.hands[seat] ^= r.bit[i]
        self.legal_mask = self.plays_memo = None
        count = self.count
        if declared is None:
            self.order.append(i)
            if count == 0:
                self.leader = self.winner = seat
                self.led = led = r.suit_of[i]
                self.keys = keys = self.keytabs[self.keyrow + led]
                self.best = keys[i] - r.tie
            elif self.general:
                if self.lead_mode == "open" and self.led < 0:
                    self.led = r.suit_of[i]  # the first card after an open lead names the suit
                self._rescore()
            else:
                k = self.keys[i]
                if k > self.best:
                    self.best = k - r.tie
                    self.winner = seat
        else:
            self.decl[len(self.order)] = declared
            self.order.append(i)
            if count == 0:
                self._declared_lead(seat, i, declared)
            self.general = True
            self._rescore()
        count += 1
        if count < r.players:
            self.count = count
            self.to_act = r.next_seat[seat]
            return False
        # The trick ends (here, not in a helper: a call per trick was a tenth of a card's cost).
        winner = self.winner
        self.taken[winner] += 1
        winners = self.winners
        winners.append(winner)
        self.count = 0
        self.led = -1
        if self.general:  # (a plain trick never set these)
            self.lead_mode = None
            self.lead_wild = None
            self.general = False
        self.leader = self.to_act = winner
        return len(winners) == self.tricks

    def _declared_lead(self, seat: int, i: int, play: Play) -> None:
        """A wild card leads with a declaration: what it asks the others for."""
        decl = play.declare
        self.leader = seat
        self.lead_mode = decl
        self.lead_wild = self.rules.table.wild_of[i]
        if decl == "as":
            assert play.as_card is not None and play.as_card.suit is not None
            self.led = SUIT_ID[play.as_card.suit]
            self.lead_mode = None
        elif play.suit is not None:
            self.led = SUIT_ID[play.suit]
        else:
            self.led = -1

    # ------------------------------------------------------------------ who wins
    def trick_entries(self) -> list[tuple[int, Play]]:
        """(card index, play) of the cards on the table, in the order played."""
        start = len(self.winners) * self.rules.players
        log, order = self.log, self.order
        return [(order[p], log.play_at(p)) for p in range(start, len(order))]

    def key(self, pos: int, entries: list[tuple[int, Play]], led: int) -> int:
        """The strength of card ``pos`` of a trick's ``entries`` (card index, play) with led
        suit ``led``: a trump's rank above the led suit's above a discard's (0), and a
        declaration's own key."""
        t = self.rules.table
        i, play = entries[pos]
        decl = play.declare
        trump = self.trump
        if decl is None or decl == "as":
            if decl == "as":
                c = play.as_card
                assert c is not None and c.suit is not None and c.rank is not None
                suit, rank = SUIT_ID[c.suit], c.rank.order
            else:
                suit, rank = t.suit_of[i], t.rank_of[i]
                if i == self.super_card:
                    return KEY_SUPER
            if suit == trump and trump >= 0:
                return KEY_TRUMP + rank
            if suit == led:
                return KEY_LED + rank
            return 0
        if decl == "low":
            return -1
        if decl == "highest":
            return KEY_WIN
        if decl == "takes":
            suit = SUIT_ID[play.suit] if play.suit is not None else -1
            return KEY_TRUMP if suit == trump and trump >= 0 else KEY_LED
        w = t.wild_of[i]
        later = w is None or w.two_high == "later_wins"
        if pos == 0 and w is not None and w.beaten_by_trump and trump >= 0 and led != trump:
            # A high joker led in a plain suit loses to any trump played after it.
            others = (self.key(p, entries, led) for p in range(1, len(entries))
                      if entries[p][1].declare in (None, "as", "takes"))
            if any(KEY_TRUMP <= k < KEY_HIGH for k in others):
                return KEY_TRUMP - 1
        if not later and w is not None and w.two_high == "by_joker":
            return KEY_HIGH + 10 - t.cards[i].joker  # (JK above JK2, whoever plays first)
        return KEY_HIGH + (pos if later else -pos)

    def winner_pos(self, entries: list[tuple[int, Play]], led: int) -> int:
        """The position of the winning card among ``entries``: the first of the highest key; of a
        card played as another (``as``) and the real card it copies, the copy where its rules
        say so (``copy_wins``)."""
        keys = [self.key(p, entries, led) for p in range(len(entries))]
        if not self.rules.copy_wins:
            return max(range(len(keys)), key=keys.__getitem__)
        wild_of = self.rules.table.wild_of
        ranked = [(k, 1 if play.declare == "as" and (w := wild_of[i]) is not None and w.copy_wins else 0)
                  for k, (i, play) in zip(keys, entries)]
        return max(range(len(ranked)), key=ranked.__getitem__)

    def _rescore(self) -> None:
        """Find the trick's winner again (a trick holding a declared card)."""
        entries = self.trick_entries()
        pos = self.winner_pos(entries, self.led)
        self.best = self.key(pos, entries, self.led)
        self.winner = (self.leader + pos) % self.rules.players

    def would_win(self, i: int, play: Play) -> bool:
        """Whether card ``i`` played as ``play`` by the player to act would hold the trick as
        it stands now (cards still to come are not considered; a lead always holds it)."""
        if not self.count:
            return True
        if not self.general and play.declare is None:
            return self.keys[i] > self.best
        entries = self.trick_entries()
        led = self.led
        if self.lead_mode == "open" and led < 0 and play.declare is None:
            led = self.rules.suit_of[i]
        entries.append((i, play))
        return self.winner_pos(entries, led) == len(entries) - 1

    def trick_winner(self, leader: int, plays: Iterable[Play], trump: Suit | None) -> int:
        """Who would win a trick of ``plays``, in the order played, led by ``leader`` with
        ``trump``: the trick played out card by card, unchecked, on a scratch kernel (the one
        winner rule), for a checker weighing another reading of a trick a record leaves in
        question."""
        k = object.__new__(PlayKernel)
        k.rules = r = self.rules
        k.reset(1)
        k.set_trump(SUIT_ID[trump] if trump is not None else -1)
        k.begin(leader)
        table = r.table
        for play in plays:
            i = table.free(play.card, k.hands[k.to_act])
            k.hands[k.to_act] |= r.bit[i]
            k.play(i, play if play.declare is not None else None)
        return k.winners[0] if k.winners else k.winner

    # ------------------------------------------------------------------ refusals
    def refusal(self, play: Play) -> Diagnostic | None:
        """Why the player to act may not make ``play`` now (a diagnostic naming the rule), or None."""
        t = self.rules.table
        seat = self.to_act
        hand = self.hands[seat]
        i = t.held(play.card, hand) if isinstance(play.card, Card) and play.card in t.index else None
        if i is None or not (hand >> i) & 1:
            return violation("R013", tr("{card} is not in the hand of seat {seat}", card=play.card, seat=seat))
        if play.declare is None:
            if (t.joker_mask >> i) & 1:
                return violation("R015", tr("a joker must be declared: {choices}", choices=self.wild_choices(i)),
                                 hint=tr("e.g. 'JK high' or 'JK demand H'"))
            if (self.legal() >> i) & 1:
                return None
            return self._obligation_violation(hand, play.card)
        return self._declared_refusal(i, play, hand)

    def fits(self, i: int, play: Play) -> bool:
        """Whether ``play``'s declaration is one wild card ``i`` can make in this position
        (leading or following), whatever the obligations of the moment."""
        w = self.rules.table.wild_of[i]
        if w is None:
            return False
        decl = play.declare
        if decl == "as":
            return w.impersonate and play.as_card is not None and play.as_card.suit is not None
        if not self.count:
            return decl in w.lead and (play.suit is not None) == (decl in ("demand", "high", "takes"))
        return decl in w.follow and play.suit is None

    def _obligation_violation(self, hand: int, card: Card, shown: Play | None = None) -> Diagnostic:
        """Why ``card`` breaks a rule of following or trumping (``shown``: the play to name in the
        message, a wild card played as ``card``)."""
        t = self.rules.table
        named: Card | Play = card if shown is None else shown
        if self.rules.restricted and (self.obliged(hand) >> t.held(card, hand)) & 1:
            problem = self._restriction_violation(hand, card)
            if problem is not None:
                return problem
        trump = self.trump
        ordinary = hand & ~t.joker_mask
        led = self.led
        suit = t.suit_of[t.held(card, hand)]
        if self.lead_mode == "highest":
            return violation("R014", tr("{card} does not answer the 'highest' lead: play {cards}", card=named,
                                        cards=" or ".join(str(c) for c in t.cards_of(self.obliged(hand)))))
        if self.lead_mode == "demand" and led >= 0 and ordinary & t.suit_mask[led]:
            best = t.cards[(ordinary & t.suit_mask[led]).bit_length() - 1]
            if suit == led:
                return violation("R014", tr("the joker demands the highest {suit}: play {best}, not {card}",
                                            suit=SUITS[led].word, best=best, card=named))
            return violation("R010", tr("must follow {suit} with {best} (joker demand)", suit=SUITS[led].word,
                                        best=best))
        if led >= 0 and ordinary & t.suit_mask[led]:
            if trump >= 0 and suit == trump:
                return violation("R012", tr("{card} trumps while holding {suit}", card=named, suit=SUITS[led].word),
                                 hint=tr("follow suit: {suit}", suit=SUITS[led].value))
            return violation("R010", tr("{card} does not follow the led suit, {suit}, which the player holds",
                                        card=named, suit=SUITS[led].word),
                             hint=tr("play a card of {suit}", suit=SUITS[led].value))
        if trump >= 0:
            return violation("R011", tr("{card}: void in {suit} and holding a trump, the player must trump",
                                        card=named, suit=SUITS[led].word if led >= 0 else tr("the led suit")),
                             hint=tr("play a card of {suit}", suit=SUITS[trump].value))
        return violation("R015", tr("{card} cannot be played now", card=named))

    def _restriction_violation(self, hand: int, card: Card) -> Diagnostic | None:
        """Why ``card`` breaks a lead or over-trump rule, when it does."""
        trump = self.trump
        i = self.rules.table.held(card, hand)
        if trump < 0 or self.rules.table.suit_of[i] != trump:
            return None
        if not self.count:
            if self._trump_lead_barred() and hand & ~self.rules.suit_mask[trump] & self.rules.nonjoker:
                return violation("R017", tr("{card}: a trump may not be led to the first trick", card=card)
                                 if self.rules.lead_trump == "not_first_trick" else
                                 tr("{card}: a trump may not be led before trumps are broken (a trump played to "
                                    "an earlier trick)", card=card),
                                 hint=tr("lead another suit"))
            return None
        higher = self._higher_trumps(hand)
        if higher and not (higher >> i) & 1:
            beat = " or ".join(str(c) for c in self.rules.table.cards_of(higher))
            return violation("R016", tr("{card} does not beat the {suit} already in the trick: the player must "
                                        "over-trump with {beat}", card=card, suit=SUITS[trump].word, beat=beat),
                             hint=tr("play {beat}", beat=beat))
        return None

    def _declared_refusal(self, i: int, play: Play, hand: int) -> Diagnostic | None:
        w = self.rules.table.wild_of[i]
        if w is None:
            return violation("R015", tr("{card} is an ordinary card and cannot be declared {declare!r}", card=play.card,
                                        declare=play.declare))
        leading = not self.count
        if play in self.declared_plays(i, w, leading, self.legal()):
            return None
        if leading and play.declare in ("demand", "highest") and not self._demand_allowed(w):
            if w.lead_on == "first_trick":
                return violation("R015", tr("a {declare!r} lead is allowed only on the first trick of a deal",
                                            declare=play.declare))
            return violation("R015", tr("a {declare!r} lead is not allowed in this variant", declare=play.declare))
        if not w.exempt and play.declare in w.follow and not leading:
            return self._obligation_violation(hand, play.card)
        c = play.as_card
        if (play.declare == "as" and w.impersonate and not w.exempt and not leading and c is not None
                and c.suit is not None and c in self.rules.table.index):
            # named as a card, it follows suit as that card would
            return self._obligation_violation(hand | 1 << self.rules.table.index[c], c, play)
        return violation("R015", tr("{play} is not a declaration allowed here: {choices}", play=play,
                                    choices=self.wild_choices(i)))

    def wild_choices(self, i: int) -> str:
        """The declarations wild card ``i`` may be played with now, as a list for a message."""
        w = self.rules.table.wild_of[i]
        if w is None:
            return "none"
        plays = self.declared_plays(i, w, not self.count, self.legal())
        return ", ".join(f"'{p}'" for p in plays) or tr("none now")

    # ------------------------------------------------------------------ reading
    @property
    def led_suit(self) -> Suit | None:
        """The suit the trick asks for (None before the lead or when nothing is asked for)."""
        return SUITS[self.led] if self.count and self.led >= 0 else None


# By plan and card table, the plan kept beside its rules so ids stay unique; bounded as the
# plans are (the tables are cached with their variant, which the plan keeps).
_RULES: dict[tuple[int, int], tuple[TablePlan, PlayRules]] = {}


def play_rules(plan: TablePlan, table: CardTable | None = None) -> PlayRules:
    """The (cached) rules of play of ``plan``'s table (of ``table``, the card table of a kind of
    deal with wild cards of its own): one value for every game of it."""
    table = plan.table if table is None else table
    key = (id(plan), id(table))
    hit = _RULES.get(key)
    if hit is None or hit[0] is not plan:
        if len(_RULES) >= 256:
            del _RULES[next(iter(_RULES))]
        hit = _RULES[key] = (plan, PlayRules(plan, table))
    return hit[1]


_SLOTS = PlayKernel.__slots__
_get_slots = attrgetter(*_SLOTS)
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend
