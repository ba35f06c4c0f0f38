"""A played game judged decision by decision, as a chess engine judges a game's moves.

The record's deals are replayed through the engine (:func:`positions`, from the deals as the
checker's replay left them in ``game.results``: the hands, trump, bids and cards of a full or a
plays record) and at every bid, trump choice and card with more than one legal action the
search bot (:class:`~updown_dsl.players.search.SearchBot`, :meth:`~.SearchBot.evaluate`) is
given the acting seat's view, and only that view: the cards it could not see are guessed as
when it plays. Its values of the legal actions say which it prefers and how many points the
action taken lost on average (:class:`Decision`); a loss of at least ``threshold`` points is a
big one (:data:`BIG_LOSS`). Per player: the loss per deal, the big losses and the bids made
(:class:`PlayerSummary`).

The analysis uses the ``flat`` search by default: every legal action is played out in the same
guessed deals, so the difference between two actions is measured on the same cards (the tree
search spends its walks on the good actions and leaves the others' values rough). At a bid, the
play-outs after the bid taken give the chance of each number of tricks (:func:`trick_chances`,
the bidding model).

Each decision's guesses are drawn from a generator seeded by the seed, the deal and the
decision's place in it, so an analysis is the same whichever deals are analysed together or in
which process. Nothing here reads a file or prints.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Iterator, Sequence

from ..actions import Action, Bid, Call, ChooseTrump, Play
from ..engine import Game, IllegalAction, Phase
from ..engine.view import SeatView
from .search import DEFAULT_LEVEL, LEVELS, ActionValue, Evaluation, SearchBot

if TYPE_CHECKING:
    from ..engine.scoring import DealResult
    from ..lang.variant import Variant

#: Expected points lost at or above which a decision is a big loss (``??``); half of it is a
#: mistake (``?``). Ten points is a trick's worth, or a fifth of a made bid, in most variants.
BIG_LOSS = 10.0
#: The search method of an analysis (see the module).
DEFAULT_METHOD = "flat"


class DecisionKind(Enum):
    """What a decision chose."""

    BID = "bid"
    TRUMP = "trump"
    PLAY = "play"


class Mark(Enum):
    """How a decision is marked on the sheet, by its expected loss."""

    GOOD = ""
    MISTAKE = "?"
    BIG = "??"


class StopReason(Enum):
    """Why an analysis ends before the record does."""

    NO_CARDS = "no_cards"
    """A score sheet, or a deal whose cards are not all known."""
    PENALTY = "penalty"
    """A penalty, an abandoned deal or a table's event: the deals after it are not replayed."""
    REFUSED = "refused"
    """The engine refused the record's action (a record the checker does not find clean)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the record, as the search judged it from the acting seat's view."""

    deal: int
    """The deal's number (1-based, as in the record)."""
    seat: int
    kind: DecisionKind
    trick: int | None
    """The trick's number in the deal (1-based) for a card, else None."""
    taken: Action
    best: Action
    loss: float
    """Expected points lost by ``taken`` against ``best`` (0 when they agree)."""
    mark: Mark
    values: tuple[ActionValue, ...]
    """Every legal action's value, in the engine's order."""
    tricks: tuple[float, ...] = ()
    """A bid: the chance of 0, 1, ... tricks after the bid taken (the bidding model)."""

    @property
    def big(self) -> bool:
        """A loss of at least the analysis's threshold."""
        return self.mark is Mark.BIG


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """One deal: its decisions and how it ended."""

    number: int
    dealer: int
    cards: int
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    decisions: tuple[Decision, ...]


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's figures over the deals analysed."""

    seat: int
    loss: float
    """Total expected points lost."""
    loss_per_deal: float
    decisions: int
    """Decisions with more than one legal action."""
    mistakes: int
    big: int
    bids: int
    made: int
    """Bids made exactly (``made / bids``: the bid accuracy)."""
    agreed: int
    """Bids equal to the one the search prefers."""

    @property
    def accuracy(self) -> float:
        """Share of the bids made exactly (nan with no bid)."""
        return self.made / self.bids if self.bids else math.nan


@dataclass(frozen=True, slots=True)
class Settings:
    """How an analysis searches: reproducible from these values alone."""

    seed: int = 0
    level: int = DEFAULT_LEVEL
    method: str = DEFAULT_METHOD
    threshold: float = BIG_LOSS

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"search level must be one of {', '.join(map(str, LEVELS))}, not {self.level}")
        if self.method not in ("flat", "tree"):
            raise ValueError(f"search method must be 'tree' or 'flat', not {self.method!r}")
        if not self.threshold > 0:
            raise ValueError(f"the threshold of a big loss must be above 0, not {self.threshold}")


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A game's analysis: each deal analysed, each player's figures, where it stopped."""

    variant: str
    players: int
    settings: Settings
    deals: tuple[DealAnalysis, ...]
    summaries: tuple[PlayerSummary, ...]
    stopped: StopReason | None = None
    stopped_at: int | None = None
    """The number of the deal the analysis stopped at (None: it reached the end)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A decision point of a replayed record: the acting seat's view and the action taken."""

    deal: int
    order: int
    """The decision's place in its deal (0-based; every action counts, forced ones too)."""
    view: SeatView
    taken: Action


@dataclass(frozen=True, slots=True)
class ReplayedDeal:
    """A deal of a record replayed: its result and its decision points."""

    index: int
    """The deal's place among the deals replayed (0-based)."""
    result: DealResult
    positions: tuple[Position, ...]


class Stop(Exception):
    """The replay cannot go on (see :class:`StopReason`)."""

    def __init__(self, reason: StopReason, deal: int) -> None:
        super().__init__(reason.value, deal)
        self.reason = reason
        self.deal = deal


def positions(variant: Variant, players: int, results: Sequence[DealResult],
              first_dealer: int | None = None, only: set[int] | None = None) -> Iterator[ReplayedDeal]:
    """The deals of ``results`` (a replayed game's ``game.results``) replayed through a new game,
    with a view at every decision (``only``: only in the deals at these places, the others
    with none); raises :class:`Stop` where the replay cannot go on."""
    if first_dealer is None:
        first_dealer = results[0].dealer if results else None
    game = Game(variant, players, first_dealer=first_dealer, auto_deal=False)
    cut = None
    index = 0
    for r in results:
        if r.event == "cut":
            cut = r.turned
            continue
        number = r.deal.number
        if r.event != "deal" or r.annulled:
            raise Stop(StopReason.PENALTY, number)
        if len(r.hands) != players or any(len(h) != r.deal.cards or None in h for h in r.hands):
            raise Stop(StopReason.NO_CARDS, number)
        found = _replay_deal(game, r, cut, number, only is None or index in only)
        cut = None
        yield ReplayedDeal(index, r, found)
        index += 1


def _replay_deal(game: Game, r: DealResult, cut: object, number: int, views: bool) -> tuple[Position, ...]:
    if game.phase is not Phase.DEAL and game.phase is not Phase.BID:
        raise Stop(StopReason.REFUSED, number)
    plays = iter([(tp.seat, tp.play) for trick in r.tricks for tp in trick.plays])  # type: ignore[attr-defined]
    start = game.deal_index
    found: list[Position] = []
    order = 0
    try:
        while not game.is_over and game.deal_index == start:
            phase: Phase = game.phase  # (read anew: each action moves it on)
            if phase is Phase.DEAL:
                game.deal_cards(r.hands, turned=r.turned, cut_card=cut, random_trump=r.trump)  # type: ignore[arg-type]
                continue
            seat = game.to_act
            judged = phase is not Phase.AUCTION and views and len(game.legal_actions()) > 1
            action: Action
            if phase is Phase.BID:
                bid = r.seats[seat].bid
                if bid is None:
                    raise Stop(StopReason.REFUSED, number)
                action = Bid(bid)
            elif phase is Phase.TRUMP:
                action = ChooseTrump(r.trump)
            elif phase is Phase.PLAY:
                who, play = next(plays, (None, None))
                if who != seat or not isinstance(play, Play):
                    raise Stop(StopReason.REFUSED, number)
                action = play
            else:  # an auction: each seat's call, not analysed
                call = r.calls[seat] if seat < len(r.calls) else None
                action = call if isinstance(call, Call) else Call(0, None)
            if judged:
                found.append(Position(number, order, game.view(seat), action))
            game.apply(action)
            order += 1
    except IllegalAction:
        raise Stop(StopReason.REFUSED, number) from None
    return tuple(found)


def analyst(settings: Settings) -> SearchBot:
    """The search bot an analysis asks (its generator is seeded anew at every decision)."""
    from .bots import HeuristicBot

    rng = random.Random(settings.seed)
    return SearchBot(rng, settings.level, bidder=HeuristicBot(rng), method=settings.method)


def decision_seed(settings: Settings, deal: int, order: int) -> str:
    """The seed of one decision's guesses: the same wherever and with whatever it is analysed."""
    return f"{settings.seed}/{deal}/{order}"


def judge(bot: SearchBot, position: Position, settings: Settings) -> Decision:
    """One decision judged from its seat's view (see the module)."""
    view = position.view
    bot.rng.seed(decision_seed(settings, position.deal, position.order))
    ev: Evaluation = bot.evaluate(view, always=True)
    loss = ev.loss(position.taken)
    if loss >= settings.threshold:
        mark = Mark.BIG
    elif loss >= settings.threshold / 2:
        mark = Mark.MISTAKE
    else:
        mark = Mark.GOOD
    kind = {Phase.BID: DecisionKind.BID, Phase.TRUMP: DecisionKind.TRUMP}.get(view.phase, DecisionKind.PLAY)
    trick = len(view.tricks) + 1 if kind is DecisionKind.PLAY else None
    taken = ev.of(position.taken)
    tricks = taken.tricks if kind is DecisionKind.BID and taken is not None else ()
    return Decision(position.deal, view.seat, kind, trick, position.taken, ev.best, round(loss, 6), mark,
                    ev.actions, tricks)


def analyse_deal(deal: ReplayedDeal, settings: Settings, bot: SearchBot | None = None) -> DealAnalysis:
    """Every decision of one replayed deal judged."""
    bot = bot or analyst(settings)
    r = deal.result
    return DealAnalysis(r.deal.number, r.dealer, r.deal.cards, tuple(s.bid for s in r.seats),
                        tuple(s.taken for s in r.seats), tuple(s.points for s in r.seats),
                        tuple(judge(bot, p, settings) for p in deal.positions))


def analyse_results(variant: Variant, players: int, results: Sequence[DealResult], settings: Settings,
                    deals: Sequence[int] | None = None, first_dealer: int | None = None
                    ) -> tuple[list[DealAnalysis], Stop | None]:
    """The deals of a replayed game analysed (only those at the places ``deals`` names, when
    given), and where the replay stopped (None: at the end)."""
    wanted = None if deals is None else set(deals)
    out = []
    bot = analyst(settings)
    try:
        for deal in positions(variant, players, results, first_dealer, wanted):
            if wanted is None or deal.index in wanted:
                out.append(analyse_deal(deal, settings, bot))
            if wanted is not None and deal.index >= max(wanted, default=-1):
                break
    except Stop as stop:
        return out, stop
    return out, None


def summarise(players: int, deals: Sequence[DealAnalysis]) -> tuple[PlayerSummary, ...]:
    """Each player's figures over ``deals``."""
    out = []
    for seat in range(players):
        mine = [d for deal in deals for d in deal.decisions if d.seat == seat]
        bids = [(deal, d) for deal in deals for d in deal.decisions if d.seat == seat and d.kind is DecisionKind.BID]
        loss = sum(d.loss for d in mine)
        out.append(PlayerSummary(
            seat, round(loss, 6), round(loss / len(deals), 6) if deals else 0.0, len(mine),
            sum(d.mark is Mark.MISTAKE for d in mine), sum(d.mark is Mark.BIG for d in mine),
            len(bids), sum(deal.bids[seat] == deal.taken[seat] for deal, _ in bids),
            sum(d.taken == d.best for _, d in bids)))
    return tuple(out)


def analyse_game(game: Game, settings: Settings | None = None) -> GameAnalysis:
    """A replayed game (a checker's ``report.game``) analysed deal by deal, in this process."""
    settings = settings or Settings()
    deals, stop = analyse_results(game.variant, game.players, game.results, settings)
    return assemble(game.variant.name, game.players, settings, deals, stop)


def assemble(variant: str, players: int, settings: Settings, deals: Sequence[DealAnalysis],
             stop: Stop | None) -> GameAnalysis:
    """The analysis of a game from its deals analysed (in order) and where the replay stopped."""
    return GameAnalysis(variant, players, settings, tuple(deals), summarise(players, deals),
                        None if stop is None else stop.reason, None if stop is None else stop.deal)


def trick_chances(view: SeatView, bid: int | None = None, *, level: int = DEFAULT_LEVEL,
                  rng: random.Random | None = None) -> tuple[float, ...]:
    """The bidding model: the chance that the seat of ``view`` (at its bid) takes 0, 1, ...
    tricks in the deal, after bidding ``bid`` (None: the bid the search prefers).

    The unseen cards are guessed from the view (the bids before it, its voids: none yet) and
    each guess is played out by the roll-out policy with every seat playing for its bid (the
    bids still to come guessed from the guessed hands), as :meth:`SearchBot.evaluate` does.

    :raises ValueError: when it is not the seat's turn to bid.
    """
    if view.phase is not Phase.BID or not view.legal:
        raise ValueError("the chance of each number of tricks is asked at the seat's bid")
    rng = rng or random.Random(0)
    from .bots import HeuristicBot

    bot = SearchBot(rng, level, bidder=HeuristicBot(rng), method="flat")
    ev = bot.evaluate(view, always=True)
    chosen = ev.best if bid is None else Bid(bid)
    found = ev.of(chosen)
    if found is None:
        raise ValueError(f"bid {bid} is not legal here")
    return found.tricks


def action_data(action: Action) -> object:
    """An action as plain data: a bid's number, a card as the record writes it (``JK high H``),
    a trump choice's suit letter (``none``), a call as written."""
    if isinstance(action, Bid):
        return action.tricks
    if isinstance(action, Play):
        return str(action)
    if isinstance(action, ChooseTrump):
        return "none" if action.suit is None else str(action.suit)
    return str(action)


def to_data(analysis: GameAnalysis, names: Sequence[str] | None = None) -> dict[str, object]:
    """An analysis as plain data (for JSON and the page); ``names``: the players' names."""
    names = list(names) if names is not None else [f"p{s + 1}" for s in range(analysis.players)]
    st = analysis.settings

    def num(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 3)

    return {
        "variant": analysis.variant,
        "players": names,
        "settings": {"seed": st.seed, "level": st.level, "method": st.method, "threshold": st.threshold},
        "stopped": None if analysis.stopped is None else {"reason": analysis.stopped.value, "deal": analysis.stopped_at},
        "summary": [{"player": names[p.seat], "seat": p.seat, "loss": num(p.loss), "loss_per_deal": num(p.loss_per_deal),
                     "decisions": p.decisions, "mistakes": p.mistakes, "big": p.big, "bids": p.bids,
                     "made": p.made, "accuracy": num(p.accuracy), "agreed": p.agreed} for p in analysis.summaries],
        "deals": [{
            "deal": d.number, "cards": d.cards, "dealer": names[d.dealer], "bids": list(d.bids),
            "taken": list(d.taken), "points": list(d.points),
            "decisions": [{
                "player": names[x.seat], "seat": x.seat, "kind": x.kind.value, "trick": x.trick,
                "taken": action_data(x.taken), "best": action_data(x.best), "loss": num(x.loss),
                "mark": x.mark.value,
                "values": [{"action": action_data(v.action), "value": num(v.value), "tries": v.tries}
                           for v in x.values],
                **({"tricks": [round(p, 4) for p in x.tricks]} if x.tricks else {}),
            } for x in d.decisions],
        } for d in analysis.deals],
    }
