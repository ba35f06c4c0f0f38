"""Write a game played by the engine as a transcript, at any of the three levels.

``full`` keeps the hands, ``plays`` keeps the bids and the cards as they fell,
``sheet`` keeps bids, tricks taken and points: what a person at the table can
write down, in the long form or one row per deal (``compact``).
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ..actions import Action, Bid, Call, ChooseTrump, Play
from ..engine import Game, seat_by_rule, trump_rule_for
from ..engine.auction import call_ranks, highest_call
from ..engine.plan import highest_bidder
from ..engine.scoring import DealResult
from ..lang.variant import rules_hash, rules_text
from .compact import compact_events
from .model import LEVELS, Event, Header, Transcript
from .reader import _NAME, RESERVED_NAMES

WRITER = "updown 0.1.0"


def default_names(players: int) -> tuple[str, ...]:
    """``p1`` … ``pN``."""
    return tuple(f"p{i + 1}" for i in range(players))


def game_headers(
    game: Game,
    names: Sequence[str],
    *,
    variant: str | None = None,
    first_dealer: int | None = None,
    level: str = "full",
    extra: Sequence[tuple[str, str]] = (),
    embed_rules: bool = False,
) -> list[Header]:
    """The header lines of a game's transcript, in canonical order (with ``embed_rules``, the
    resolved rules themselves in a ``rules-text`` line, so the record needs no variant file)."""
    first = first_dealer if first_dealer is not None else _first_dealer(game)
    headers = [
        Header("variant", variant or _variant_label(game)),
        Header("players", " ".join(names)),
        Header("first-dealer", names[first]),
        Header("level", level),
    ]
    headers += [Header(k, v) for k, v in extra]
    headers += [Header("writer", WRITER), Header("rules", rules_hash(game))]
    if embed_rules:
        headers.append(Header("rules-text", rules_text(game)))
    return headers


def _variant_label(game: Game) -> str:
    """The bundled name when the variant is a bundled file, else its path."""
    from pathlib import Path

    from ..lang.loader import variants_dir

    path = game.variant.path
    if path is None:
        return game.variant.name
    p = Path(path)
    try:
        if p.resolve().parent == variants_dir().resolve():
            return p.stem
    except OSError:
        pass
    return path


def _first_dealer(game: Game) -> int:
    for r in game.results:
        return r.dealer
    return game.dealer


def check_names(names: Sequence[str]) -> None:
    """Player names a transcript can hold: one word each, no ``#`` or ``:``, not a
    keyword of the format, all different (ignoring case).

    :raises ValueError: naming the first bad name.
    """
    seen: set[str] = set()
    for name in names:
        if not _NAME.fullmatch(name) or name.lower() in RESERVED_NAMES:
            raise ValueError(f"{name!r} cannot be a player's name in a transcript "
                             "(one word, no '#', ':' or '|', not a keyword such as 'deal')")
        if name.lower() in seen:
            raise ValueError(f"two players are called {name!r}")
        seen.add(name.lower())


def game_transcript(
    game: Game,
    names: Sequence[str] | None = None,
    *,
    level: str = "full",
    variant: str | None = None,
    extra: Sequence[tuple[str, str]] = (),
    embed_rules: bool = False,
    compact: bool = False,
) -> Transcript:
    """The transcript of ``game`` so far (finished deals and the deal in progress).

    ``embed_rules`` writes the resolved rules in a ``rules-text`` header line: the record is
    then checked by those rules wherever it goes, with or without the variant file.
    ``compact`` (level ``sheet`` only) writes each deal as one score-sheet row
    (:mod:`~updown_dsl.records.compact`); the lines a row does not hold (a penalty, a
    replay, a cut) follow it.

    :raises ValueError: for an unknown level, a wrong number of names, or ``compact`` at
        another level than ``sheet``.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if compact and level != "sheet":
        raise ValueError(f"a compact record is a score sheet: level must be 'sheet', not {level!r}")
    names = tuple(names) if names is not None else default_names(game.players)
    if len(names) != game.players:
        raise ValueError(f"{len(names)} names for {game.players} players")
    check_names(names)
    headers = game_headers(game, names, variant=variant, level=level, extra=extra, embed_rules=embed_rules)
    events = list(game_events(game, level))
    if game.is_over:
        events.append(Event("settlement", amounts=tuple(game.settlement())))
    if compact:
        events = compact_events(events, game.players)
    return Transcript(tuple(headers), names, tuple(events))


def action_event(seat: int, action: Action) -> Event:
    """The line that records ``seat`` taking ``action`` (a bid, a call, a trump, a card)."""
    if isinstance(action, Bid):
        return Event("bid", actor=seat, number=action.tricks)
    if isinstance(action, Call):
        return Event("call", actor=seat, number=action.tricks, suit=action.suit, no_trump=action.suit is None)
    if isinstance(action, ChooseTrump):
        return Event("trump", actor=seat, suit=action.suit, no_trump=action.suit is None)
    return Event("play", actor=seat, play=action)


def hint_event(seat: int, action: Action) -> Event:
    """The annotation that ``seat`` was shown ``action`` as a suggestion (``NAME hint ...``)."""
    e = action_event(seat, action)
    return e._replace(kind="hint", code=e.kind)


def game_events(game: Game, level: str = "full") -> Iterator[Event]:
    """Every body event of ``game`` so far, in order."""
    totals = [0] * game.players
    cuts: list[DealResult] = []
    penalties: list[DealResult] = []  # revokes that did not annul their deal
    for r in game.results:
        r.apply_to(totals)
        if r.event == "cut":
            cuts.append(r)
        elif r.event == "revoke" and r.annulled:
            yield from _annulled_deal_events(game, r, cuts, level, list(totals))
            cuts = []
        elif r.event == "redeal":
            yield from _redeal_events(game, r, cuts, level)
            cuts = []
        elif r.event == "revoke":
            penalties.append(r)
        else:
            yield from _deal_events(game, r, cuts, penalties, level, list(totals))
            cuts, penalties = [], []
    blind_bids = any(b is not None for b in game.bids)  # a blind deal waiting for its cards
    if not game.is_over and (game.phase.value != "deal" or cuts or penalties or blind_bids):
        yield from _current_deal_events(game, cuts, penalties, level)


def _penalty_event(r: DealResult) -> Event:
    seat = r.actor if r.actor is not None else 0
    return Event("penalty", actor=seat, number=r.seats[seat].penalty, code=r.offence)


def _plays_with_penalties(plays: Sequence[tuple[int, Play]], penalties: Sequence[DealResult]) -> Iterator[Event]:
    """Cards as played, with each illegal card and its penalty where they happened."""
    at = {len(p.played) - 1: p for p in penalties if p.played}
    for k, (seat, play) in enumerate(plays):
        if k in at:
            offence = at.pop(k)
            seat_o, play_o = offence.played[-1]
            yield Event("play", actor=seat_o, play=play_o)  # type: ignore[arg-type]
            yield _penalty_event(offence)
        yield Event("play", actor=seat, play=play)
    for offence in at.values():
        seat_o, play_o = offence.played[-1]
        yield Event("play", actor=seat_o, play=play_o)  # type: ignore[arg-type]
        yield _penalty_event(offence)


def _annulled_deal_events(game: Game, r: DealResult, cuts: Sequence[DealResult], level: str,
                          totals: list[int]) -> Iterator[Event]:
    """A deal stopped by a revoke: as far as it went, the penalty, and ``replay``."""
    bids = [s.bid for s in r.seats]
    yield from _opening(game, r.deal.number, r.dealer, r.hands, cuts, r.turned, r.trump, True, level, bids,
                        r.calls)
    if level != "sheet":
        for seat, play in r.played:
            yield Event("play", actor=seat, play=play)  # type: ignore[arg-type]
    yield _penalty_event(r)
    yield Event("replay")
    yield Event("total", amounts=tuple(totals))


def _redeal_events(game: Game, r: DealResult, cuts: Sequence[DealResult], level: str) -> Iterator[Event]:
    """A deal called off by a player void in a suit: as far as it went, and ``NAME redeal``."""
    bids = [s.bid for s in r.seats]
    yield from _opening(game, r.deal.number, r.dealer, r.hands, cuts, r.turned, r.trump, True, level, bids,
                        r.calls)
    yield Event("redeal", actor=r.actor)


def _bid_order(game: Game, dealer: int) -> list[int]:
    first = seat_by_rule(game.variant.bidding.first_bidder, dealer, game.players)
    return [(first + i) % game.players for i in range(game.players)]


def _auction_events(game: Game, order: Sequence[int], bids: Sequence[int | None],
                    calls: Sequence[Call | None]) -> Iterator[Event]:
    """An auction's calls in bidding order, then the others' bids from the declarer's left
    (a dash and the highest call are their callers' bids)."""
    for s in order:
        c = calls[s] if calls else None
        if c is not None:
            yield Event("call", actor=s, number=c.tricks, suit=c.suit, no_trump=c.suit is None)
    auction = game.variant.bidding.auction
    if not calls or any(c is None for c in calls) or auction is None:
        return
    declarer = highest_call(calls, order, call_ranks(auction.order))
    n = game.players
    for k in range(1, n):
        s = (declarer + k) % n
        c = calls[s]
        if c is not None and c.tricks and bids[s] is not None:
            yield Event("bid", actor=s, number=bids[s])


def _opening(game: Game, deal_number: int, dealer: int, hands: Sequence[Sequence[object]],
             cuts: Sequence[DealResult], turned: object, trump: object, trump_known: bool,
             level: str, bids: Sequence[int | None], calls: Sequence[Call | None] = ()) -> Iterator[Event]:
    """Deal header, (blind) bids, cut, hands, trump, an auction's calls and bids of one deal."""
    deal = game.deals[deal_number - 1]
    yield Event("deal", number=deal_number, size=deal.cards, actor=dealer)
    bidding = game.variant.kinds[deal.kind].bidding
    blind = bidding == "before_deal"
    order = _bid_order(game, dealer)
    bid_events = [Event("bid", actor=s, number=bids[s]) for s in order if bids[s] is not None]
    if bidding == "auction":
        bid_events = list(_auction_events(game, order, bids, calls))
    if blind:
        yield from bid_events
    for c in cuts:
        yield Event("cut", actor=c.reset[0], cards=(c.turned,))
    # A deal kept on a score sheet has no hands but is dealt once its trump is known (a blind
    # deal's, once every bid is in).
    kept = level == "sheet" and trump_known and not (blind and any(b is None for b in bids))
    if not any(hands) and not kept:
        return  # not dealt yet
    if level == "full":
        for s, h in enumerate(hands):
            yield Event("hand", actor=s, cards=tuple(h))  # type: ignore[arg-type]
    rules, rule = trump_rule_for(game.variant, deal, game.players, game.table.size)
    # A trump chosen after the bidding is written after the bids, as it was named.
    named_after = rule == "chosen" and rules.after_bidding and level != "sheet"
    if trump_known and bidding != "auction":  # (an auction's calls name the trump)
        if level == "sheet":
            yield Event("trump", suit=trump, no_trump=trump is None)  # type: ignore[arg-type]
        elif named_after:
            pass
        elif rule == "chosen":
            chooser = seat_by_rule(rules.chooser, dealer, game.players, order[0])
            yield Event("trump", actor=chooser, suit=trump, no_trump=trump is None)  # type: ignore[arg-type]
        elif turned is not None:
            yield Event("turned", cards=(turned,))  # type: ignore[arg-type]
        elif rule == "random":
            yield Event("trump", suit=trump, no_trump=trump is None)  # type: ignore[arg-type]
    if not blind:
        yield from bid_events
    if named_after and trump_known and all(bids[s] is not None for s in order):
        if rules.chooser == "highest_bidder":
            chooser = highest_bidder(bids, order)
        else:
            chooser = seat_by_rule(rules.chooser, dealer, game.players, order[0])
        yield Event("trump", actor=chooser, suit=trump, no_trump=trump is None)  # type: ignore[arg-type]


def _deal_events(game: Game, r: DealResult, cuts: Sequence[DealResult], penalties: Sequence[DealResult],
                 level: str, totals: list[int]) -> Iterator[Event]:
    bids = [s.bid for s in r.seats]
    yield from _opening(game, r.deal.number, r.dealer, r.hands, cuts, r.turned, r.trump, True, level, bids,
                        r.calls)
    # A deal a penalty stopped (``then: abandon``): the cards as far as they went, the
    # penalty, and the scores the table decided.
    stopped = r.event == "abandoned" and bool(penalties)
    if level == "sheet":
        yield from (_penalty_event(p) for p in penalties)
        for s, seat in enumerate(r.seats):
            if not stopped:
                yield Event("took", actor=s, number=seat.taken)
    else:
        plays: list[tuple[int, Play]] = (
            [(seat, play) for seat, play in penalties[-1].played[:-1]] if stopped else  # type: ignore[misc]
            [(tp.seat, tp.play) for t in r.tricks for tp in t.plays])  # type: ignore[attr-defined]
        yield from _plays_with_penalties(plays, penalties)
    yield Event("score", amounts=tuple(s.points + s.bonus for s in r.seats))
    yield Event("total", amounts=tuple(totals))


def _current_deal_events(game: Game, cuts: Sequence[DealResult], penalties: Sequence[DealResult],
                         level: str) -> Iterator[Event]:
    trump_known = game.phase.value not in ("deal", "trump")
    yield from _opening(game, game.deal.number, game.dealer, game.dealt_hands, cuts, game.turned,
                        game.trump, trump_known, level, game.bids, game.calls)
    if level == "sheet":
        yield from (_penalty_event(p) for p in penalties)
        return
    plays = [(tp.seat, tp.play) for t in game.tricks for tp in t.plays]
    plays += [(tp.seat, tp.play) for tp in game.trick]
    yield from _plays_with_penalties(plays, penalties)
