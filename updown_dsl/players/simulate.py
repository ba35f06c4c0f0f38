"""Bots against bots: play many games and summarise how each seat and each bot kind did.

Pure library code (no printing, no files): :func:`simulate` plays ``games`` games of one
variant with one bot per seat and returns a :class:`SimulationSummary` of frozen
dataclasses; :meth:`SimulationSummary.to_dict` gives plain data for JSON. A caller that
wants the games themselves (to save transcripts, to advance a progress bar) passes
``on_game``, called with the game's 0-based index and the finished :class:`Game`.

Reproducible: game ``g`` is dealt from ``random.Random(f"{seed}:{g}:deal")`` and the bot
in seat ``s`` draws from ``random.Random(f"{seed}:{g}:{s}")``, so the same seed, variant,
players and line-up give the same games on every run and machine (string seeds are hashed
with SHA-512 by :class:`random.Random`, not by Python's salted ``hash``). The deals of game
``g`` do not depend on the bots, so two line-ups compared with one seed meet the same cards
as long as their bids and plays do not change the number of deals (a stop-loss can).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from typing import Callable, NamedTuple, Sequence

from .bots import bot_problem, make_bot
from ..engine import EndKind, Game, Phase
from ..lang.variant import Variant

__all__ = ["GameFacts", "KindSummary", "SeatSummary", "SimulationSummary", "Tally", "VariantSummary", "lineup",
           "play_game", "simulate"]

MIXED = "mixed"
"""``SeatSummary.bot`` of a seat where several bot kinds sat (``rotate=True``)."""


@dataclass(frozen=True)
class Results:
    """How a seat or a bot kind did: the figures :class:`SeatSummary` and :class:`KindSummary` share.

    ``points`` are final totals, ``settlement`` the variant's final settlement
    (:meth:`Game.settlement`); ``wins`` counts a tie for the highest total shared by
    ``k`` seats as ``1/k`` to each. ``bids_made`` is the share of bids made exactly,
    over the scored deals with bids (deals without bidding, such as minimum and
    maximum deals with `bidding: none`, do not count).
    """

    games: int
    mean_points: float
    sd_points: float
    """Sample standard deviation of the final totals (0 for fewer than two games)."""
    wins: float
    win_share: float
    """``wins / games``: compare with ``1 / players``, a fair share."""
    bids: int
    bids_made: float
    mean_settlement: float


@dataclass(frozen=True)
class SeatSummary(Results):
    """How one seat (0-based) did over the games."""

    seat: int = 0
    bot: str = ""
    """The bot kind that sat here, or ``"mixed"`` when the line-up rotated."""
    games_by_bot: tuple[tuple[str, int], ...] = ()
    """``(kind, games)`` for every kind that sat here."""


@dataclass(frozen=True)
class KindSummary(Results):
    """One bot kind, aggregated over every (game, seat) it played.

    ``games`` counts seat-games: three ``random`` bots in 100 games make 300.
    """

    bot: str = ""
    mean_points_by_seat: tuple[float | None, ...] = ()
    """Mean final points of this kind in each seat (None: it never sat there)."""


@dataclass(frozen=True)
class VariantSummary:
    """The games themselves, whoever played them."""

    variant: str
    players: int
    games: int
    mean_deals: float
    """Scored deals per game (annulled deals and cut records not counted)."""
    bidding_rounds: int
    """Bidding rounds in which the last bidder acted."""
    hook_share: float
    """Share of those rounds in which the dealer's hook forbade a bid (under ``bidding.total:
    over`` or ``under``: took bids away)."""
    mean_deal_decisions: float
    """Decisions (bids, trump choices, cards) per scored deal."""
    stop_loss_share: float
    """Share of games ended by the stop-loss."""
    forfeits: int = 0
    """Decisions an external program (``exec:``) did not make, played by its fallback bot."""


@dataclass(frozen=True)
class SimulationSummary:
    """Everything :func:`simulate` measured."""

    variant: VariantSummary
    seats: tuple[SeatSummary, ...]
    kinds: tuple[KindSummary, ...]
    """One entry per bot kind, in order of first appearance in the line-up."""
    bots: tuple[str, ...]
    """The line-up as given (seat by seat for game 0)."""
    seed: int | str
    rotate: bool

    def kind(self, bot: str) -> KindSummary:
        """The summary of one bot kind.

        :raises KeyError: for a kind that did not play.
        """
        for k in self.kinds:
            if k.bot == bot:
                return k
        raise KeyError(bot)

    def to_dict(self) -> dict[str, object]:
        """Plain data (dicts, lists, numbers, strings) for ``json.dumps``."""
        seats = []
        for s in self.seats:
            d = asdict(s)
            d["games_by_bot"] = dict(s.games_by_bot)
            seats.append(d)
        return {
            "variant": asdict(self.variant),
            "bots": list(self.bots),
            "seed": self.seed,
            "rotate": self.rotate,
            "seats": seats,
            "kinds": [{**asdict(k), "mean_points_by_seat": list(k.mean_points_by_seat)} for k in self.kinds],
        }


def lineup(bots: Sequence[str], game: int, rotate: bool) -> tuple[str, ...]:
    """The bot kind in each seat for game ``game`` (0-based).

    With ``rotate`` the line-up moves one seat to the left each game: seat ``s`` of game
    ``g`` gets ``bots[(s - g) % n]``, so over any ``n`` consecutive games every entry of
    the line-up sits once in every seat.
    """
    n = len(bots)
    if not rotate:
        return tuple(bots)
    return tuple(bots[(s - game) % n] for s in range(n))


@dataclass
class _Acc:
    """Running sums for a seat or a kind."""

    points: list[int] = field(default_factory=list)
    settlement: list[int] = field(default_factory=list)
    wins: float = 0.0
    bids: int = 0
    made: int = 0
    by_bot: dict[str, int] = field(default_factory=dict)

    def add(self, bot: str, points: int, settlement: int, win: float, bids: int, made: int) -> None:
        self.points.append(points)
        self.settlement.append(settlement)
        self.wins += win
        self.bids += bids
        self.made += made
        self.by_bot[bot] = self.by_bot.get(bot, 0) + 1

    def fields(self) -> dict[str, object]:
        n = len(self.points)
        return {
            "games": n,
            "mean_points": _mean(self.points),
            "sd_points": _sd(self.points),
            "wins": self.wins,
            "win_share": self.wins / n if n else 0.0,
            "bids": self.bids,
            "bids_made": self.made / self.bids if self.bids else 0.0,
            "mean_settlement": _mean(self.settlement),
        }


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else 0.0


def _sd(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


class GameFacts(NamedTuple):
    """What one finished game adds to a summary: plain values, so they cross processes."""

    kinds: tuple[str, ...]
    totals: tuple[int, ...]
    settlement: tuple[int, ...]
    winners: tuple[int, ...]
    bids: tuple[int, ...]
    """Per seat: bids made in scored deals with bidding."""
    made: tuple[int, ...]
    deals: int
    decisions: int
    rounds: int
    hooked: int
    stopped: bool
    forfeits: int = 0
    """Decisions ``exec:`` bots forfeited to their fallback (:class:`~.execbot.Forfeit`)."""


def play_game(variant: Variant, players: int, g: int, *, seed: int | str, bots: Sequence[str],
              rotate: bool = False) -> tuple[Game, GameFacts]:
    """Play game ``g`` (0-based) of a simulation: the same game whoever calls it, wherever."""
    kinds = lineup(bots, g, rotate)
    n = players
    game = Game(variant, n, rng=random.Random(f"{seed}:{g}:deal"))
    players_ = [make_bot(k, random.Random(f"{seed}:{g}:{s}")) for s, k in enumerate(kinds)]
    decisions = rounds = hooked = 0
    while not game.is_over:
        seat = game.to_act
        if game.phase is Phase.BID and sum(b is not None for b in game.bids) == n - 1:
            rounds += 1
            if game.bidding.hook_restricts():  # (every rule on the total: differ, over, under)
                hooked += 1
        game.apply(players_[seat].act(game.view(seat)))
        decisions += 1
    scored = [r for r in game.results if r.event == "deal"]
    bids, made = [], []
    for s in range(n):
        with_bid = [r.seats[s] for r in scored if r.seats[s].bid is not None]
        bids.append(len(with_bid))
        made.append(sum(1 for r in with_bid if r.bid == r.taken))
    stopped = game.end is not None and game.end.kind is EndKind.STOP_LOSS
    forfeits = sum(len(getattr(b, "forfeits", ())) for b in players_)
    facts = GameFacts(kinds, tuple(game.totals), tuple(game.settlement()), tuple(game.winners()),
                      tuple(bids), tuple(made), len(scored), decisions, rounds, hooked, stopped, forfeits)
    return game, facts


class Tally:
    """Figures of many games added one at a time, in game order, then summarised.

    Adding the same games in the same order gives the same summary to the last bit, however
    the games were played (one process, a pool, a cluster).
    """

    def __init__(self, variant_name: str, players: int, bots: Sequence[str], seed: int | str,
                 rotate: bool) -> None:
        self.variant_name, self.n, self.bots, self.seed, self.rotate = variant_name, players, tuple(bots), seed, rotate
        self.seat_acc = [_Acc() for _ in range(players)]
        self.kind_acc: dict[str, _Acc] = {k: _Acc() for k in dict.fromkeys(self.bots)}
        self.by_seat: dict[tuple[str, int], list[int]] = {(k, s): [] for k in self.kind_acc for s in range(players)}
        self.games = self.deals = self.decisions = self.rounds = self.hooked = self.stopped = self.forfeits = 0

    def add(self, f: GameFacts) -> None:
        self.games += 1
        self.deals += f.deals
        self.decisions += f.decisions
        self.rounds += f.rounds
        self.hooked += f.hooked
        self.stopped += f.stopped
        self.forfeits += f.forfeits
        for s in range(self.n):
            win = 1 / len(f.winners) if s in f.winners else 0.0
            row = (f.kinds[s], f.totals[s], f.settlement[s], win, f.bids[s], f.made[s])
            self.seat_acc[s].add(*row)
            self.kind_acc[f.kinds[s]].add(*row)
            self.by_seat[(f.kinds[s], s)].append(f.totals[s])

    def summary(self) -> SimulationSummary:
        n, bots, games = self.n, self.bots, self.games
        seat_summaries = []
        for s, acc in enumerate(self.seat_acc):
            by_bot = tuple(sorted(acc.by_bot.items()))
            bot = by_bot[0][0] if len(by_bot) == 1 else (bots[s] if not by_bot else MIXED)
            seat_summaries.append(SeatSummary(seat=s, bot=bot, games_by_bot=by_bot, **acc.fields()))  # type: ignore[arg-type]
        kind_summaries = tuple(
            KindSummary(bot=k, mean_points_by_seat=tuple(
                _mean(self.by_seat[(k, s)]) if self.by_seat[(k, s)] else None for s in range(n)),
                **acc.fields())  # type: ignore[arg-type]
            for k, acc in self.kind_acc.items())
        summary = VariantSummary(
            variant=self.variant_name,
            players=n,
            games=games,
            mean_deals=self.deals / games if games else 0.0,
            bidding_rounds=self.rounds,
            hook_share=self.hooked / self.rounds if self.rounds else 0.0,
            mean_deal_decisions=self.decisions / self.deals if self.deals else 0.0,
            stop_loss_share=self.stopped / games if games else 0.0,
            forfeits=self.forfeits,
        )
        return SimulationSummary(summary, tuple(seat_summaries), kind_summaries, bots, self.seed, self.rotate)


def check_simulation(variant: Variant, players: int | None, games: int, bots: Sequence[str]) -> int:
    """The number of seats, once the arguments of a simulation are found good.

    :raises ValueError: for an unknown bot, a line-up of the wrong length, a player count
        the variant does not allow, or a negative number of games.
    """
    n = players if players is not None else len(bots)
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for {n} players: give one bot kind per seat")
    for kind in bots:
        problem = bot_problem(kind)
        if problem is not None:
            raise ValueError(problem)
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    if not variant.min_players <= n <= variant.max_players:
        raise ValueError(f"{variant.name} is for {variant.min_players} to {variant.max_players} players, not {n}")
    return n


def simulate(
    variant: Variant | str,
    players: int | None,
    games: int,
    *,
    seed: int | str,
    bots: Sequence[str],
    rotate: bool = False,
    on_game: Callable[[int, Game], None] | None = None,
) -> SimulationSummary:
    """Play ``games`` games of ``variant`` with one bot per seat and summarise them.

    :param variant: a loaded :class:`Variant` or a bundled name / path for
        :func:`~updown_dsl.lang.loader.load_variant`.
    :param players: number of seats (None: ``len(bots)``).
    :param seed: the simulation seed; every game and bot is seeded from it.
    :param bots: one bot kind per seat (names from :data:`~updown_dsl.players.bots.BOTS`).
    :param rotate: move the line-up one seat each game (see :func:`lineup`), so that
        each kind sits in each seat; use a multiple of ``players`` games for equal turns.
    :param on_game: called as ``on_game(g, game)`` after game ``g`` (0-based) ends.
    :raises ValueError: for an unknown bot, a line-up of the wrong length, a player count
        the variant does not allow, or a negative number of games.

    :func:`updown_dsl.batch.simulate_games` plays the same games in a process pool or on a
    Dask cluster, with the same summary.
    """
    if isinstance(variant, str):
        from ..lang.loader import load_variant

        variant = load_variant(variant)
    bots = tuple(bots)
    n = check_simulation(variant, players, games, bots)
    tally = Tally(variant.name, n, bots, seed, rotate)
    for g in range(games):
        game, facts = play_game(variant, n, g, seed=seed, bots=bots, rotate=rotate)
        tally.add(facts)
        if on_game is not None:
            on_game(g, game)
    return tally.summary()
