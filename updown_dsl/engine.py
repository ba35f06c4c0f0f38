"""The game engine: one state machine driven by a loaded :class:`Variant`.

The engine knows no variant by name: every rule comes from the variant's
fields. State is mutable for speed (bots and the checker apply millions of
actions); read it through the properties, change it only with
:meth:`Game.apply`, :meth:`Game.deal_cards` and :meth:`Game.revoke`.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .actions import Action, Bid, ChooseTrump, Play
from .cards import Card, Suit
from .diagnostics import Diagnostic, UpdownError
from .schedule import resolve_schedule
from .scoring import DealResult, SeatResult, score_deal, set_bonuses, settle
from .tables import SUIT_ID, SUITS, card_table
from .variant import Deal, DealKind, TrumpRules, Variant, WildRules

if TYPE_CHECKING:
    from .view import SeatView


class Phase(enum.StrEnum):
    """Where a game is."""

    DEAL = "deal"
    """Waiting for cards (only when the game was made with ``auto_deal=False``)."""
    TRUMP = "trump"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


class IllegalAction(UpdownError):
    """An action the rules refuse; ``diagnostics[0]`` names the rule."""


_BIDS = tuple(Bid(n) for n in range(64))
_BID_SETS: dict[tuple[int, int, int | None], tuple[Bid, ...]] = {}
_KEY_WIN = 1 << 20
_KEY_HIGH = 5000


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """One card on the table."""

    seat: int
    play: Play


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick."""

    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int


def _violation(code: str, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, message, hint=hint)


class Game:
    """A whole game of one variant for a number of players.

    :param seed: or ``rng``: where shuffles and random trumps come from.
    :param first_dealer: seat (0-based) of the first dealer; default the last seat,
        so seat 0 is eldest in the first deal.
    :param auto_deal: deal each deal from the random generator; with ``False``
        the caller supplies cards through :meth:`deal_cards` in phase ``DEAL``.
    """

    def __init__(
        self,
        variant: Variant,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
    ) -> None:
        n = players if players is not None else variant.default_players
        if not variant.min_players <= n <= variant.max_players:
            raise ValueError(
                f"{variant.name} is for {variant.min_players} to {variant.max_players} players, not {n}"
            )
        self.variant = variant
        self.players = n
        self.table = card_table(variant)
        self.deals: tuple[Deal, ...] = _schedule(variant, n)
        self._cut_rule = any(w.cut_zeroes_total for w in variant.wild)
        self._cut_shows = next((w.cut_shows for w in variant.wild if w.cut_zeroes_total), "")
        self.rng = rng if rng is not None else random.Random(seed)
        self.auto_deal = auto_deal
        self.totals: list[int] = [0] * n
        self.results: list[DealResult] = []
        self.tricks: list[Trick] = []
        """Finished tricks of the current deal."""
        self.deal_index = 0
        self.dealer = (n - 1) if first_dealer is None else first_dealer % n
        self.over_reason: str | None = None
        self._serial = 0
        self._start_deal()

    # ------------------------------------------------------------------ reading
    @property
    def deal(self) -> Deal:
        """The current deal (the last one when the game is over)."""
        return self._deal

    @property
    def kind(self) -> DealKind:
        """The rules of the current deal's kind."""
        return self._kind

    @property
    def eldest(self) -> int:
        """The seat left of the dealer."""
        return (self.dealer + 1) % self.players

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the current deal (None: no trump or not known yet)."""
        return None if self._trump < 0 else SUITS[self._trump]

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in pack order."""
        return self.table.cards_of(self._hands[seat])

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand."""
        return tuple(self.hand(s) for s in range(self.players))

    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt this deal, in dealing order (empty before the deal)."""
        return tuple(self._dealt)

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Bids of the current deal by seat (None: not yet bid)."""
        return tuple(self._bids)

    @property
    def taken(self) -> tuple[int, ...]:
        """Tricks taken in the current deal by seat."""
        return tuple(self._taken)

    @property
    def trick(self) -> tuple[TrickPlay, ...]:
        """The cards on the table in the current trick."""
        return tuple(TrickPlay(s, p) for s, p in zip(self._trick_seats, self._trick_plays))

    @property
    def leader(self) -> int:
        """Who leads (or led) the current trick."""
        return self._leader

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.phase is Phase.OVER

    def view(self, seat: int) -> "SeatView":
        """What ``seat`` can see (for a player or a bot): see :mod:`updown_dsl.view`."""
        from .view import seat_view

        return seat_view(self, seat)

    def bidding_order(self) -> list[int]:
        """Seats in the order they bid this deal."""
        return [(self._first_bidder + i) % self.players for i in range(self.players)]

    def bid_range(self) -> tuple[int, int]:
        """Lowest and highest bid allowed in this deal."""
        return self._bid_range

    def forbidden_bid(self) -> int | None:
        """The bid the hook forbids to the player about to bid, if any."""
        if self.phase is not Phase.BID or self._bids_made != self.players - 1:
            return None
        if not self._hook:
            return None
        rest = self.deal.cards - self._bid_sum
        lo, hi = self._bid_range
        return rest if lo <= rest <= hi else None

    # ------------------------------------------------------------------ dealing
    def _deal_env(self) -> dict[str, int]:
        d = self.deal
        set_deals = sum(1 for x in self.deals if x.set == d.set)
        return {
            "cards": d.cards,
            "players": self.players,
            "deal": d.number,
            "deals": len(self.deals),
            "set": d.set,
            "set_deal": d.set_deal,
            "set_deals": set_deals,
            "deck": self.table.size,
            **self.variant.scoring.params,
        }

    def _trump_rules(self) -> TrumpRules:
        return trump_rule_for(self.variant, self._deal, self.players, self.table.size)[0]

    def _start_deal(self) -> None:
        self._deal = self.deals[self.deal_index]
        self._kind = self.variant.kinds[self._deal.kind]
        n = self.players
        self._hands = [0] * n
        self._dealt: list[tuple[Card, ...]] = [()] * n
        self._bids: list[int | None] = [None] * n
        self._bids_made = 0
        self._bid_sum = 0
        self._serial += 1
        self._legal_serial = -1
        self._legal_mask = 0
        self._plays_serial = -1
        self._plays_cache: tuple[Play, ...] = ()
        self._env = env = self._deal_env()
        b = self.variant.bidding
        self._bid_range = (max(0, b.min_bid(env)), min(self.deal.cards, b.max_bid(env)))
        self._hook = self._hook_applies()
        self._taken = [0] * n
        self._trick_seats: list[int] = []
        self._trick_plays: list[Play] = []
        self._trick_index: list[int] = []
        self._led_suit = -1
        self._lead_mode: str | None = None
        self._lead_wild: WildRules | None = None
        self.tricks = []
        self._trump = -1
        self.turned: Card | None = None
        """The card turned up for trump, if any."""
        self.cut_card: Card | None = None
        """The card exposed by the cut, if the variant looks at it."""
        self._trump_chooser = -1
        self._first_bidder = seat_by_rule(self.variant.bidding.first_bidder, self.dealer, self.players)
        self._leader = self._seat_by(self.variant.play.first_leader)
        if self.kind.bidding == "before_deal":
            self._begin_bidding()  # blind: bid first, deal after
            return
        self._to_deal()

    def _to_deal(self) -> None:
        self.phase = Phase.DEAL
        self.to_act = -1
        if self.auto_deal:
            self._deal_random()

    def _seat_by(self, rule: str) -> int:
        return seat_by_rule(rule, self.dealer, self.players, self._first_bidder)

    def deal_random(self) -> None:
        """Shuffle and deal the current deal from the game's random generator (phase ``DEAL``).

        Games made with ``auto_deal=True`` do this by themselves; a game that was
        replayed from explicit cards can switch to random dealing with it.

        :raises IllegalAction: outside phase ``DEAL``.
        """
        if self.phase is not Phase.DEAL:
            raise IllegalAction(_violation("R002", f"cards are dealt only at the start of a deal, not in the {self.phase} phase"))
        self._deal_random()

    def _deal_random(self) -> None:
        # The engine's own shuffle needs no validation: deal card indices straight
        # into bit sets. (Same random draws as dealing a shuffled list of cards.)
        t = self.table
        size = t.size
        order = list(range(size))
        rng = self.rng
        rng.shuffle(order)
        cut_index = None
        if self._cut_rule:
            k = rng.randrange(1, size)
            cut_index = order[k - 1] if self._cut_shows == "lifted_bottom" else order[k]
            order = order[k:] + order[:k]
        n, k = self.players, self._deal.cards
        cards = t.cards
        masks = [0] * n
        dealt: list[list[Card]] = [[] for _ in range(n)]
        seat = self.eldest
        for j in range(n * k):
            i = order[j]
            masks[seat] |= 1 << i
            dealt[seat].append(cards[i])
            seat = seat + 1 if seat + 1 < n else 0
        rules, rule = self._trump_rule_now()
        trump, shown = -1, None
        if rule == "fixed":
            trump = SUIT_ID[rules.suit] if rules.suit is not None else -1
        elif rule == "random":
            suit = self._draw_random_trump(rules)
            trump = -1 if suit is None else SUIT_ID[suit]
        elif rule == "turned":
            shown = cards[order[n * k]]
            trump = self._suit_of_turned(shown)
        elif rule == "last_dealt":
            shown = dealt[self.dealer][-1]
            trump = self._suit_of_turned(shown)
        self._install(masks, [tuple(h) for h in dealt], rules, rule, trump, shown, cut_index)

    def deal_from_order(
        self,
        order: Sequence[Card],
        *,
        cut_card: Card | None = None,
        random_trump: Suit | None = None,
    ) -> None:
        """Deal from a pack in this order (top first), one card at a time from eldest.

        The card after the hands is the turned card when the variant turns one;
        a random trump not given is drawn from the game's random generator.
        """
        n, k = self.players, self.deal.cards
        hands = [[order[i * n + s] for i in range(k)] for s in range(n)]
        # Seat s receives from position (s - eldest) mod n of each round.
        hands = [hands[(s - self.eldest) % n] for s in range(n)]
        rest = list(order[n * k :])
        rules = self._trump_rules()
        if random_trump is None and rules.rule == "random":
            random_trump = self._draw_random_trump(rules)
        self.deal_cards(hands, turned=rest[0] if rest else None, cut_card=cut_card,
                        random_trump=random_trump)

    def _draw_random_trump(self, rules: TrumpRules) -> Suit | None:
        options: list[Suit | None] = list(SUITS)
        if rules.random_no_trump:
            options.append(None)
        return self.rng.choice(options)

    def deal_cards(
        self,
        hands: Sequence[Sequence[Card]],
        *,
        turned: Card | None = None,
        cut_card: Card | None = None,
        random_trump: Suit | None = None,
        recorded_trump: Suit | None = None,
    ) -> None:
        """Give each seat its cards (in the order dealt) and find trump.

        :param turned: the card turned for trump (ignored unless the rules turn one).
        :param cut_card: the card exposed at the cut (for the cut rule).
        :param random_trump: the suit drawn when trump is random.
        :param recorded_trump: the trump suit as a record gives it when the turned card is
            not known (``turned`` omitted).
        :raises IllegalAction: for a wrong hand size or a card not in the pack or dealt twice.
        """
        if self.phase is not Phase.DEAL:
            raise IllegalAction(_violation("R002", f"cards are dealt only at the start of a deal, not in the {self.phase} phase"))
        n, k = self.players, self.deal.cards
        table = self.table
        seen = 0
        masks = []
        for s, h in enumerate(hands):
            if len(h) != k:
                raise IllegalAction(_violation("R002", f"seat {s + 1} was dealt {len(h)} cards, deal {self.deal.number} has {k}"))
            m = 0
            for c in h:
                i = table.index.get(c)
                if i is None:
                    raise IllegalAction(_violation("R013", f"{c} is not in this pack"))
                if (seen >> i) & 1:
                    raise IllegalAction(_violation("R013", f"{c} was dealt twice"))
                seen |= 1 << i
                m |= 1 << i
            masks.append(m)
        if len(masks) != n:
            raise IllegalAction(_violation("R002", f"{len(masks)} hands for {n} players"))
        # Find trump before changing anything, so a refused deal leaves the game as it was.
        rules, rule = self._trump_rule_now()
        trump, shown = -1, None
        if rule == "fixed":
            trump = SUIT_ID[rules.suit] if rules.suit is not None else -1
        elif rule == "random":
            if random_trump is None and not rules.random_no_trump:
                raise IllegalAction(_violation("R002", "the randomly drawn trump suit must be given"))
            trump = -1 if random_trump is None else SUIT_ID[random_trump]
        elif rule in ("turned", "last_dealt"):
            shown = turned if rule == "turned" else hands[self.dealer][-1]
            if shown is None and recorded_trump is not None:
                trump = SUIT_ID[recorded_trump]
        if rule in ("turned", "last_dealt") and not (shown is None and recorded_trump is not None):
            if shown is None:
                raise IllegalAction(_violation("R002", "no card was turned for trump"))
            i = table.index.get(shown)
            if i is None:
                raise IllegalAction(_violation("R013", f"the turned card {shown} is not in this pack"))
            if rule == "turned" and (seen >> i) & 1:
                raise IllegalAction(_violation("R013", f"the turned card {shown} was also dealt"))
            trump = self._suit_of_turned(shown)
        cut_index = table.index.get(cut_card) if cut_card is not None else None
        if cut_card is not None and cut_index is None:
            raise IllegalAction(_violation("R013", f"the cut card {cut_card} is not in this pack"))
        self._install(masks, [tuple(h) for h in hands], rules, rule, trump, shown, cut_index)

    def _apply_cut(self, cut_index: int | None) -> None:
        """The cut rule: the special card exposed at the cut zeroes the cutter's total."""
        table = self.table
        self.cut_card = None if cut_index is None else table.cards[cut_index]
        if cut_index is not None:
            w = table.wild_of[cut_index]
            if w is not None and w.cut_zeroes_total:
                cutter = self._seat_by(self.variant.cut_by)
                self.totals[cutter] = 0
                self.results.append(
                    DealResult.cut(self._deal, self.dealer, self.players, cutter, table.cards[cut_index])
                )

    def _trump_rule_now(self) -> tuple[TrumpRules, str]:
        """The trump rules of this deal and the rule that applies (after exhaustion)."""
        return trump_rule_for(self.variant, self._deal, self.players, self.table.size)

    def _install(
        self,
        masks: list[int],
        dealt: list[tuple[Card, ...]],
        rules: TrumpRules,
        rule: str,
        trump: int,
        shown: Card | None,
        cut_index: int | None,
    ) -> None:
        """Put checked hands on the table, apply the cut rule and move on to trump or bids."""
        self._hands = masks
        self._dealt = dealt
        self._serial += 1
        self._apply_cut(cut_index)
        self.turned = shown
        self._trump = trump
        if rule == "chosen":
            self._trump_chooser = self._seat_by(rules.chooser)
            self.phase = Phase.TRUMP
            self.to_act = self._trump_chooser
            return
        self._after_trump()

    def _suit_of_turned(self, card: Card) -> int:
        i = self.table.index.get(card)
        if i is None:
            return -1
        if self.table.suit_of[i] < 0:
            return -1  # a joker turned up: no trump
        w = self.table.wild_of[i]
        if w is not None and w.turned_as_trump == "no_trump":
            return -1
        return self.table.suit_of[i]

    def chooser_view(self) -> tuple[Card, ...]:
        """The cards the trump chooser has seen when naming trump."""
        if self._trump_chooser < 0:
            return ()
        return self._dealt[self._trump_chooser][: self._trump_rules().choose_after]

    def _after_trump(self) -> None:
        if self.kind.bidding == "before_deal":
            self._begin_play()  # the bids were made before the cards were dealt
        else:
            self._begin_bidding()

    def _begin_bidding(self) -> None:
        if self.kind.bidding == "none":
            self._begin_play()
            return
        self.phase = Phase.BID
        self.to_act = self._first_bidder

    def _begin_play(self) -> None:
        self.phase = Phase.PLAY
        self._leader = self._seat_by(self.variant.play.first_leader)
        self.to_act = self._leader

    def _hook_applies(self) -> bool:
        hook = self.kind.hook if self.kind.hook is not None else self.variant.bidding.hook
        if not hook:
            return False
        exempt = self.variant.bidding.hook_exempt
        return not (exempt is not None and exempt(self._env))

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, in a fixed order."""
        phase = self.phase
        if phase is Phase.PLAY:
            if self._plays_serial != self._serial:
                self._plays_cache = self._legal_plays()
                self._plays_serial = self._serial
            return self._plays_cache
        if phase is Phase.BID:
            lo, hi = self._bid_range
            forbidden = self.forbidden_bid()
            key = (lo, hi, forbidden)
            bids = _BID_SETS.get(key)
            if bids is None:
                bids = _BID_SETS[key] = tuple(_BIDS[b] for b in range(lo, hi + 1) if b != forbidden)
            return bids
        if phase is Phase.TRUMP:
            rules = self._trump_rules()
            choices: list[Action] = [ChooseTrump(s) for s in SUITS]
            if rules.choose_no_trump:
                choices.append(ChooseTrump(None))
            return tuple(choices)
        return ()

    def _ordinary_legal(self, hand: int) -> int:
        """Bit set of the cards in ``hand`` playable without a declaration now."""
        t = self.table
        ordinary = hand & ~t.joker_mask
        if not self._trick_plays or not ordinary:
            return ordinary
        mode = self._lead_mode
        trump = self._trump
        if mode == "highest":
            w = self._lead_wild
            assert w is not None
            if w.answer == "highest_of_suit" and t.suit_of[t.index[w.cards[0]]] >= 0:
                in_suit = ordinary & t.suit_mask[t.suit_of[t.index[w.cards[0]]]]
                return (1 << (in_suit.bit_length() - 1)) if in_suit else ordinary
            if w.answer == "highest_trump" and trump >= 0 and ordinary & t.suit_mask[trump]:
                return 1 << ((ordinary & t.suit_mask[trump]).bit_length() - 1)
            best = max(t.rank_of[i] for i in _bits(ordinary))
            return sum(1 << i for i in _bits(ordinary) if t.rank_of[i] == best)
        led = self._led_suit
        if led < 0:
            return ordinary
        in_suit = ordinary & t.suit_mask[led]
        if mode == "demand":
            if in_suit:
                return 1 << (in_suit.bit_length() - 1)
            w = self._lead_wild
            if w is not None and w.demand_void != "any" and trump >= 0:
                trumps = ordinary & t.suit_mask[trump]
                if trumps:
                    if w.demand_void == "highest_trump":
                        return 1 << (trumps.bit_length() - 1)
                    return trumps
            return ordinary
        if in_suit:
            if self.variant.play.must_follow:
                return in_suit
            return ordinary
        if trump >= 0 and self.variant.play.must_trump:
            trumps = ordinary & t.suit_mask[trump]
            if trumps:
                return trumps
        return ordinary

    def _legal_now(self) -> int:
        """``_ordinary_legal`` of the player to act, memoised per state change."""
        if self._legal_serial != self._serial:
            self._legal_mask = self._ordinary_legal(self._hands[self.to_act])
            self._legal_serial = self._serial
        return self._legal_mask

    def _legal_plays(self) -> tuple[Play, ...]:
        t = self.table
        hand = self._hands[self.to_act]
        legal = self._legal_now()
        out = t.plays_of(legal)
        wild_in_hand = hand & t.wild_mask
        if wild_in_hand:
            extra: list[Play] = []
            leading = not self._trick_plays
            for i in _bits(wild_in_hand):
                w = t.wild_of[i]
                if w is not None:
                    extra.extend(self._declared_plays(i, w, leading, legal))
            out += tuple(extra)
        return out

    def _declared_plays(self, i: int, w: WildRules, leading: bool, legal: int) -> list[Play]:
        card = self.table.cards[i]
        out: list[Play] = []
        if leading:
            for decl in w.lead:
                if decl in ("demand", "highest") and not self._demand_allowed(w):
                    continue
                if decl in ("demand", "high", "takes"):
                    out.extend(Play(card, decl, s) for s in SUITS)
                else:
                    out.append(Play(card, decl))
        else:
            if w.exempt or not w.ordinary and self._no_obligation() or (legal >> i) & 1:
                out.extend(Play(card, decl) for decl in w.follow)
        if w.impersonate:
            for c in self.table.cards:
                if c.is_joker or self.table.suit_of[self.table.index[c]] < 0:
                    continue
                ci = self.table.index[c]
                if leading or w.exempt or (self._ordinary_legal((1 << ci) | self._hands[self.to_act] & ~(1 << i)) >> ci) & 1:
                    out.append(Play(card, "as", None, c))
        return out

    def _no_obligation(self) -> bool:
        """The player holds neither the led (or demanded) suit nor a trump they must play."""
        t = self.table
        led = self._led_suit
        if self._lead_mode == "highest" or led < 0:
            return self._lead_mode != "highest"
        hand = self._hands[self.to_act] & ~t.joker_mask
        if hand & t.suit_mask[led]:
            return False
        trump = self._trump
        return not (trump >= 0 and self.variant.play.must_trump and hand & t.suit_mask[trump])

    def _demand_allowed(self, w: WildRules) -> bool:
        if w.lead_on == "never":
            return False
        if w.lead_on == "first_trick":
            return not self.tricks
        return True

    def check(self, action: Action) -> Diagnostic | None:
        """Why ``action`` is illegal now (a diagnostic naming the rule), or None."""
        phase = self.phase
        if phase is Phase.OVER:
            return _violation("R030", "the game is over")
        if isinstance(action, Play):
            if phase is not Phase.PLAY:
                return _violation("R002", f"no card can be played in the {phase} phase")
            return self._check_play(action)
        if isinstance(action, Bid):
            if phase is not Phase.BID:
                return _violation("R002", f"no bid can be made in the {phase} phase")
            lo, hi = self._bid_range
            if not lo <= action.tricks <= hi:
                return _violation("R020", f"bid {action.tricks} is out of range {lo}..{hi}")
            if action.tricks == self.forbidden_bid():
                return _violation(
                    "R021",
                    f"the last bidder may not bid {action.tricks}: the bids would total "
                    f"{self.deal.cards}, the number of cards",
                    hint="bid any other number (the hook, «не сходимся»)",
                )
            return None
        if isinstance(action, ChooseTrump):
            if phase is not Phase.TRUMP:
                return _violation("R022", f"trump cannot be named in the {phase} phase")
            if action.suit is None and not self._trump_rules().choose_no_trump:
                return _violation("R022", "no trump may not be named in this variant")
            return None
        return _violation("R002", f"not an action: {action!r}")

    def _check_play(self, play: Play) -> Diagnostic | None:
        t = self.table
        i = t.index.get(play.card)
        seat = self.to_act
        hand = self._hands[seat]
        if i is None or not (hand >> i) & 1:
            return _violation("R013", f"{play.card} is not in the hand of seat {seat + 1}")
        if play.declare is None:
            if (t.joker_mask >> i) & 1:
                return _violation("R015", f"a joker must be declared: {self._wild_choices(i)}",
                                  hint="e.g. 'JK high' or 'JK demand H'")
            if (self._ordinary_legal(hand) >> i) & 1:
                return None
            return self._obligation_violation(hand, play.card)
        w = t.wild_of[i]
        if w is None:
            return _violation("R015", f"{play.card} is an ordinary card and cannot be declared {play.declare!r}")
        if play in self._declared_plays(i, w, not self._trick_plays, self._ordinary_legal(hand)):
            return None
        if not self._trick_plays and play.declare in ("demand", "highest") and not self._demand_allowed(w):
            if w.lead_on == "first_trick":
                return _violation("R015", f"a {play.declare!r} lead is allowed only on the first trick of a deal")
            return _violation("R015", f"a {play.declare!r} lead is not allowed in this variant")
        if not w.exempt and play.declare in w.follow and self._trick_plays:
            return self._obligation_violation(hand, play.card)
        return _violation("R015", f"{play} is not a declaration allowed here: {self._wild_choices(i)}")

    def _wild_choices(self, i: int) -> str:
        w = self.table.wild_of[i]
        if w is None:
            return "none"
        plays = self._declared_plays(i, w, not self._trick_plays,
                                     self._ordinary_legal(self._hands[self.to_act]))
        return ", ".join(f"'{p}'" for p in plays) or "none now"

    def _obligation_violation(self, hand: int, card: Card) -> Diagnostic:
        t = self.table
        trump = self._trump
        ordinary = hand & ~t.joker_mask
        led = self._led_suit
        if self._lead_mode == "highest":
            return _violation("R014", f"{card} does not answer the 'highest' lead: play "
                              f"{' or '.join(str(c) for c in t.cards_of(self._ordinary_legal(hand)))}")
        if self._lead_mode == "demand" and led >= 0 and ordinary & t.suit_mask[led]:
            best = t.cards[(ordinary & t.suit_mask[led]).bit_length() - 1]
            if t.suit_of[t.index[card]] == led:
                return _violation("R014", f"the joker demands the highest {SUITS[led].name.lower()}: "
                                  f"play {best}, not {card}")
            return _violation("R010", f"must follow {SUITS[led].name.lower()} with {best} (joker demand)")
        if led >= 0 and ordinary & t.suit_mask[led]:
            if trump >= 0 and t.suit_of[t.index[card]] == trump:
                return _violation("R012", f"{card} trumps while holding {SUITS[led].name.lower()}",
                                  hint=f"follow suit: {SUITS[led].value}")
            return _violation("R010", f"{card} does not follow the led suit, "
                              f"{SUITS[led].name.lower()}, which the player holds",
                              hint=f"play a card of {SUITS[led].value}")
        if trump >= 0:
            return _violation("R011", f"{card}: void in {SUITS[led].name.lower() if led >= 0 else 'the led suit'} "
                              f"and holding a trump, the player must trump",
                              hint=f"play a card of {SUITS[trump].value}")
        return _violation("R015", f"{card} cannot be played now")

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action) -> None:
        """Apply a legal action.

        :raises IllegalAction: naming the rule when the action is not legal.
        """
        if type(action) is Play and action.declare is None and self.phase is Phase.PLAY:
            # Hot path: a plain card inside the legal set needs no further checks.
            t = self.table
            i = t.play_index.get(id(action))
            if i is None:
                i = t.index.get(action.card, -1)
            if i >= 0 and (self._legal_now() >> i) & 1:
                self._apply_play(action, i)
                return
        problem = self.check(action)
        if problem is not None:
            raise IllegalAction(problem)
        if isinstance(action, Play):
            self._apply_play(action, self.table.index[action.card])
        elif isinstance(action, Bid):
            self._apply_bid(action.tricks)
        else:
            self._trump = -1 if action.suit is None else SUIT_ID[action.suit]
            self._after_trump()

    def _apply_bid(self, tricks: int) -> None:
        self._bids[self.to_act] = tricks
        self._bids_made += 1
        self._bid_sum += tricks
        if self._bids_made == self.players:
            if self.kind.bidding == "before_deal":
                self._to_deal()
            else:
                self._begin_play()
        else:
            self.to_act = (self.to_act + 1) % self.players

    def _apply_play(self, play: Play, i: int) -> None:
        self._serial += 1
        t = self.table
        seat = self.to_act
        self._hands[seat] &= ~(1 << i)
        position = len(self._trick_plays)
        decl = play.declare
        if position == 0:
            self._leader = seat
            self._lead_mode = decl
            self._lead_wild = t.wild_of[i] if decl is not None else None
            if decl is None:
                self._led_suit = t.suit_of[i]
            elif decl == "as":
                assert play.as_card is not None
                self._led_suit = SUIT_ID[play.as_card.suit]  # type: ignore[index]
                self._lead_mode = None
            elif play.suit is not None:
                self._led_suit = SUIT_ID[play.suit]
            else:
                self._led_suit = -1
        elif self._lead_mode == "open" and self._led_suit < 0 and decl is None:
            self._led_suit = t.suit_of[i]
        self._trick_seats.append(seat)
        self._trick_plays.append(play)
        self._trick_index.append(i)
        if len(self._trick_plays) == self.players:
            self._finish_trick()
        else:
            self.to_act = (seat + 1) % self.players

    def _play_key(self, pos: int, play: Play) -> int:
        t = self.table
        i = self._trick_index[pos]
        decl = play.declare
        trump = self._trump
        if decl is None or decl == "as":
            if decl == "as":
                assert play.as_card is not None
                suit, rank = SUIT_ID[play.as_card.suit], play.as_card.rank.order  # type: ignore[index, union-attr]
            else:
                suit, rank = t.suit_of[i], t.rank_of[i]
            if suit == trump and trump >= 0:
                return 2000 + rank
            if suit == self._led_suit:
                return 1000 + rank
            return 0
        if decl == "low":
            return -1
        if decl == "highest":
            return _KEY_WIN
        if decl == "takes":
            suit = SUIT_ID[play.suit] if play.suit is not None else -1
            return 2000 if suit == trump and trump >= 0 else 1000
        w = t.wild_of[i]
        later = w is None or w.two_high == "later_wins"
        if pos == 0 and w is not None and w.beaten_by_trump and trump >= 0 and self._led_suit != trump:
            if any(k >= 2000 and k < _KEY_HIGH for k in self._trick_keys_without(0)):
                return 1999
        return _KEY_HIGH + (pos if later else -pos)

    def _trick_keys_without(self, skip: int) -> list[int]:
        return [self._play_key(p, pl) for p, pl in enumerate(self._trick_plays) if p != skip
                and pl.declare in (None, "as", "takes")]

    def would_win(self, play: Play) -> bool:
        """Whether ``play`` by the player to act would hold the trick as it stands now.

        Cards still to come are not considered; a lead always holds the trick so far.
        """
        if self.phase is not Phase.PLAY or not self._trick_plays:
            return self.phase is Phase.PLAY
        i = self.table.index[play.card]
        led = self._led_suit
        if self._lead_mode == "open" and led < 0 and play.declare is None:
            self._led_suit = self.table.suit_of[i]
        self._trick_plays.append(play)
        self._trick_index.append(i)
        try:
            keys = [self._play_key(p, pl) for p, pl in enumerate(self._trick_plays)]
        finally:
            self._trick_plays.pop()
            self._trick_index.pop()
            self._led_suit = led
        return max(range(len(keys)), key=keys.__getitem__) == len(keys) - 1

    def _finish_trick(self) -> None:
        keys = [self._play_key(p, pl) for p, pl in enumerate(self._trick_plays)]
        best = max(range(len(keys)), key=keys.__getitem__)
        winner = self._trick_seats[best]
        self.tricks.append(
            Trick(self._leader, tuple(TrickPlay(s, p) for s, p in zip(self._trick_seats, self._trick_plays)), winner)
        )
        self._taken[winner] += 1
        self._trick_seats = []
        self._trick_plays = []
        self._trick_index = []
        self._led_suit = -1
        self._lead_mode = None
        self._lead_wild = None
        self._leader = winner
        self.to_act = winner
        if len(self.tricks) == self._deal.cards:
            self._finish_deal()

    def _finish_deal(self) -> None:
        kind = self.kind
        env = self._env
        result = score_deal(
            self.variant, kind, self.deal, env,
            bids=self._bids, taken=self._taken, totals=self.totals, dealer=self.dealer,
            trump=self.trump, turned=self.turned, tricks=tuple(self.tricks), hands=tuple(self._dealt),
        )
        self.results.append(result)
        for s in range(self.players):
            self.totals[s] += result.seats[s].points
        if self._is_last_of_set():
            bonus = set_bonuses(self.variant, self.deal, env, self.results, self.totals)
            if bonus is not None:
                self.results[-1] = result = result.with_bonus(bonus)
                for s in range(self.players):
                    self.totals[s] += bonus[s]
        self._next_deal()

    # ------------------------------------------------------------------ partial records
    def deal_unknown(self, *, trump: Suit | None = None, turned: Card | None = None,
                     chosen: bool = False, cut_card: Card | None = None) -> None:
        """Start the deal without knowing the cards (a score sheet): trump as written.

        With ``chosen`` (and rules that let a player name trump) the game waits for
        that player's :class:`ChooseTrump`. Bids are then checked as usual; finish the
        deal with :meth:`record_tricks`.

        :raises IllegalAction: outside phase ``DEAL``.
        """
        if self.phase is not Phase.DEAL:
            raise IllegalAction(_violation("R002", f"cards are dealt only at the start of a deal, not in the {self.phase} phase"))
        self._hands = [0] * self.players
        self._dealt = [()] * self.players
        self._serial += 1
        cut_index = self.table.index.get(cut_card) if cut_card is not None else None
        if cut_card is not None and cut_index is None:
            raise IllegalAction(_violation("R013", f"the cut card {cut_card} is not in this pack"))
        self._apply_cut(cut_index)
        self.turned = turned
        self._trump = -1 if trump is None else SUIT_ID[trump]
        rules, rule = self._trump_rule_now()
        if chosen and rule == "chosen":
            self._trump_chooser = self._seat_by(rules.chooser)
            self.phase = Phase.TRUMP
            self.to_act = self._trump_chooser
            return
        self._after_trump()

    def record_tricks(self, taken: Sequence[int]) -> None:
        """Finish a deal whose cards are not known from the tricks each player took.

        :raises IllegalAction: before the play or after a card was played (R002), or
            when the tricks do not add up to the hand size (R053).
        """
        if self.phase is not Phase.PLAY or self.tricks or self._trick_plays:
            raise IllegalAction(_violation("R002", "tricks taken can be recorded only before any card is played"))
        if len(taken) != self.players or any(t < 0 for t in taken) or sum(taken) != self._deal.cards:
            raise IllegalAction(_violation(
                "R053", f"tricks taken {' + '.join(map(str, taken))} = {sum(taken)} do not add up to "
                f"the {self._deal.cards} cards of deal {self._deal.number}"))
        self._taken = list(taken)
        self._finish_deal()

    def abandon_deal(self, points: Sequence[int] | None = None) -> None:
        """Give up on the current deal (a record too broken to follow) and go on to the next.

        ``points`` (as written in the record, if any) are added to the totals.
        """
        if self.phase is Phase.OVER:
            raise IllegalAction(_violation("R030", "the game is over"))
        pts = list(points) if points is not None else [0] * self.players
        seats = tuple(SeatResult(self._bids[s], self._taken[s], pts[s]) for s in range(self.players))
        self.results.append(DealResult(self._deal, self.dealer, seats, self.trump, self.turned,
                                       tuple(self.tricks), tuple(self._dealt), event="abandoned"))
        for s in range(self.players):
            self.totals[s] += pts[s]
        self._next_deal()

    def _is_last_of_set(self) -> bool:
        i = self.deal_index
        return i + 1 >= len(self.deals) or self.deals[i + 1].set != self.deals[i].set

    def _next_deal(self) -> None:
        end = self.variant.end
        stop = end.stop_loss
        checked = end.stop_check == "deal" or self._is_last_of_set()
        if stop is not None and checked and self._stop_loss_reached(stop):
            self._end("stop-loss reached («просчет»)")
            return
        self.deal_index += 1
        if self.deal_index >= len(self.deals):
            self._end("schedule complete")
            return
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal()

    def _stop_loss_reached(self, stop: int) -> bool:
        if self.variant.end.stop_on == "total":
            return min(self.totals) <= -stop
        n, s = self.players, sum(self.totals)
        return min(n * x - s for x in self.totals) <= -stop

    def _end(self, reason: str) -> None:
        self.phase = Phase.OVER
        self.to_act = -1
        self.over_reason = reason

    # ------------------------------------------------------------------ penalties
    def revoke(self, seat: int, code: str = "R010", play: Play | None = None) -> int:
        """Apply the variant's penalty for an illegal card by ``seat`` caught at the table.

        Adds the penalty to the offender's total; when the variant says so, the
        deal is annulled and dealt again by the same dealer. ``play`` (the illegal
        card, taken back) is kept in the record. Returns the points.

        :raises IllegalAction: when the variant has no penalty for ``code``.
        """
        rules = self.variant.revoke
        if rules is None or code not in rules.covers:
            raise IllegalAction(_violation(code, f"this variant has no penalty for {code}; the card is refused"))
        if self.phase is not Phase.PLAY:
            raise IllegalAction(_violation("R002", "a revoke can only happen while cards are played"))
        points = rules.points * (self.kind.multiplier if rules.multiplied else 1)
        self.totals[seat] += points
        played = [(tp.seat, tp.play) for t in self.tricks for tp in t.plays]
        played += list(zip(self._trick_seats, self._trick_plays))
        if play is not None:
            played.append((seat, play))
        record = DealResult.penalty(self.deal, self.dealer, self.players, seat, points, code,
                                    annulled=rules.replay, bids=self._bids, hands=tuple(self._dealt),
                                    trump=self.trump, turned=self.turned, played=tuple(played))
        self.results.append(record)
        if rules.replay:
            self._start_deal()
        return points

    # ------------------------------------------------------------------ results
    def settlement(self) -> list[int]:
        """Each seat's result by the variant's settlement (in money: points × stake)."""
        return settle(self.variant, self.totals)

    def winners(self) -> list[int]:
        """Seats with the highest total (several on a tie)."""
        best = max(self.totals)
        return [s for s, x in enumerate(self.totals) if x == best]


def seat_by_rule(rule: str, dealer: int, players: int, first_bidder: int | None = None) -> int:
    """The seat a rule word names relative to the dealer (``eldest`` is left of the dealer)."""
    if rule == "dealer":
        return dealer
    if rule == "dealer_right":
        return (dealer - 1) % players
    if rule == "first_bidder":
        return first_bidder if first_bidder is not None else (dealer + 1) % players
    return (dealer + 1) % players  # eldest, dealer_left


def trump_rule_for(variant: Variant, deal: Deal, players: int, pack: int) -> tuple[TrumpRules, str]:
    """The trump rules of ``deal`` and the rule that applies once the cards are dealt.

    With ``turned`` and every card dealt, ``when_exhausted`` decides: ``last_dealt``,
    ``none`` (no trump) or ``chosen``.
    """
    kind = variant.kinds[deal.kind]
    rules = kind.trump if kind.trump is not None else variant.trump
    rule = rules.rule
    if rule == "turned" and players * deal.cards >= pack:
        rule = {"last_dealt": "last_dealt", "no_trump": "none", "chosen": "chosen"}.get(
            rules.when_exhausted, "none"
        )
    return rules, rule


# Schedules by (variant, players); the variant is kept beside its entry so ids stay unique.
_SCHEDULES: dict[tuple[int, int], tuple[Variant, tuple[Deal, ...]]] = {}


def _schedule(variant: Variant, players: int) -> tuple[Deal, ...]:
    key = (id(variant), players)
    hit = _SCHEDULES.get(key)
    if hit is None or hit[0] is not variant:
        if len(_SCHEDULES) >= 256:  # bounded: a long archive loads many variants
            del _SCHEDULES[next(iter(_SCHEDULES))]
        hit = _SCHEDULES[key] = (variant, resolve_schedule(variant, players))
    return hit[1]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
