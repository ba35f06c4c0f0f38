"""Property tests for the checker: the engine's own games check clean, mutated games do not.

Every game here is played by the engine with random legal actions (seeded), written as a
transcript with :func:`updown_dsl.records.record.game_transcript` at one of the three levels and
read back by :func:`updown_dsl.records.checker.check_text`.

* Clean: a whole game, and a game stopped after any number of actions, checks clean
  (only the notes T020/T021 are allowed for a stopped game) and ``finished`` says
  whether the game is over.
* Mutations: one line of the canonical text is changed (or a few lines reordered) so
  that the record breaks exactly one rule; the checker must report that rule's code,
  as an error, on the changed line.

Counts of mutated games checked per class are gathered in ``COUNTS``, checked by
``test_zz_report_counts``, which runs last, and written at the end of the run (by
``tests/conftest.py``, so they show without ``-s``, and not as a warning that would look
like a fault).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import Phase as HPhase
from hypothesis import strategies as st

from updown_dsl import Card, Game, Play, load_variant
from updown_dsl.records.checker import CheckReport, check_text
from updown_dsl.diagnostics import Severity
from updown_dsl.engine import Phase
from updown_dsl.lang.loader import bundled_names
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import Event, format_event, format_transcript, parse_transcript
from updown_dsl.lang.variant import Variant

VARIANTS: dict[str, Variant] = {name: load_variant(name) for name in bundled_names()}
CASES: list[tuple[str, int]] = [
    (name, n) for name, v in VARIANTS.items() for n in range(v.min_players, v.max_players + 1)
]
LEVELS = ("full", "plays", "sheet")

#: mutated games checked, by mutation class (printed by test_zz_report_counts)
COUNTS: Counter[str] = Counter()

# Inputs are seeds: shrinking them finds no smaller game, only burns time on a failure.
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
                phases=(HPhase.explicit, HPhase.reuse, HPhase.generate))


def cases_where(pred) -> list[tuple[str, int]]:
    return [(name, n) for name, n in CASES if pred(VARIANTS[name])]


# ------------------------------------------------------------------------------ playing


@dataclass(frozen=True)
class Obligation:
    """A card the player held but could not legally play at some point (plain cards only)."""

    deal: int
    index: int
    """Position of the play in the deal (trick * players + position in the trick)."""
    seat: int
    played: Card
    alt: Card
    code: str


@dataclass
class Played:
    name: str
    players: int
    seed: int
    game: Game
    actions: int
    obligations: list[Obligation] = field(default_factory=list)
    hooks: list[tuple[int, int, int]] = field(default_factory=list)
    """(deal number, seat of the last bidder, the bid the hook forbids)."""
    revokes: int = 0
    unnoticed: list[tuple[int, int, str]] = field(default_factory=list)
    """Illegal cards played unnoticed: (deal number, position in the deal, the rule broken)."""


def play(name: str, players: int, seed: int, stop: int | None = None, watch: bool = False,
         revokes: float = 0.0, unnoticed: float = 0.0) -> Played:
    """A game of ``name`` played with random legal actions (``stop``: at most that many).

    ``revokes``: the chance, at each card, that the player to act plays an illegal card
    the variant penalizes, caught at the table (:meth:`Game.revoke`). ``unnoticed``: the
    chance that the player plays an illegal card nobody sees, and the game goes on with it
    (:meth:`Game.play_as_written`); each is kept in ``Played.unnoticed``.
    """
    g = Game(VARIANTS[name], players, seed=seed)
    rng = random.Random(seed)
    out = Played(name, players, seed, g, 0)
    table = g.table
    while not g.is_over and (stop is None or out.actions < stop):
        if unnoticed and g.phase is Phase.PLAY and rng.random() < unnoticed:
            problems = [(c, g.check(Play(c))) for c in g.hand(g.to_act)
                        if table.wild_of[table.index[c]] is None]
            illegal = [(c, d.code) for c, d in problems
                       if d is not None and d.code in ("R010", "R011", "R012", "R014")]
            if illegal:
                card, code = rng.choice(illegal)
                out.unnoticed.append((g.deal.number, len(g.tricks) * players + len(g.trick), code))
                assert g.play_as_written(Play(card))
                out.actions += 1
                continue
        if revokes and g.phase is Phase.PLAY and rng.random() < revokes:
            covers = g.variant.revoke.covers if g.variant.revoke is not None else ()
            problems = [(c, g.check(Play(c))) for c in g.hand(g.to_act)
                        if table.wild_of[table.index[c]] is None]
            illegal = [(c, d.code) for c, d in problems if d is not None and d.code in covers]
            if illegal:
                card, code = rng.choice(illegal)
                g.revoke(g.to_act, code, Play(card))
                out.revokes += 1
                out.actions += 1
                continue
        actions = g.legal_actions()
        action = rng.choice(actions)
        if watch and g.phase is Phase.BID:
            forbidden = g.forbidden_bid()
            if forbidden is not None:
                out.hooks.append((g.deal.number, g.to_act, forbidden))
        if watch and g.phase is Phase.PLAY and isinstance(action, Play) and action.declare is None \
                and table.wild_of[table.index[action.card]] is None:
            index = len(g.tricks) * players + len(g.trick)
            for c in g.hand(g.to_act):
                if c == action.card or table.wild_of[table.index[c]] is not None:
                    continue
                problem = g.check(Play(c))
                if problem is not None and problem.code in ("R010", "R011", "R012", "R014"):
                    out.obligations.append(Obligation(g.deal.number, index, g.to_act, action.card, c,
                                                      problem.code))
        g.apply(action)
        out.actions += 1
    return out


def text_of(p: Played, level: str) -> str:
    return format_transcript(game_transcript(p.game, level=level, variant=p.name))


def describe(p: Played, level: str, what: str = "") -> str:
    return f"{p.name} {p.players}p seed={p.seed} level={level} {what}"


def show(report: CheckReport) -> str:
    return "\n".join(str(d) for d in report.diagnostics) or "(no diagnostics)"


# ------------------------------------------------------------------------------ clean games


@pytest.mark.slow
@settings(max_examples=80, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), level=st.sampled_from(LEVELS))
def test_engine_game_checks_clean(case, seed, level):
    name, n = case
    p = play(name, n, seed)
    assert p.game.is_over
    report = check_text(text_of(p, level))
    where = describe(p, level)
    assert report.readable, where + "\n" + show(report)
    assert report.clean, where + "\n" + show(report)
    assert report.level == level
    assert report.finished == p.game.is_over, where + "\n" + show(report)
    # a whole game written by the engine leaves nothing to say, not even a note
    assert not report.diagnostics, where + "\n" + show(report)
    assert report.game is not None and report.game.totals == p.game.totals, where


@pytest.mark.slow
@settings(max_examples=80, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), level=st.sampled_from(LEVELS),
       stop=st.integers(0, 1000))
def test_game_stopped_midway_checks_clean(case, seed, level, stop):
    name, n = case
    p = play(name, n, seed, stop=stop)
    report = check_text(text_of(p, level))
    where = describe(p, level, f"stopped after {p.actions} actions")
    assert report.clean, where + "\n" + show(report)
    assert report.finished == p.game.is_over, where + "\n" + show(report)
    others = [d for d in report.diagnostics if d.code not in ("T020", "T021")]
    assert not others, where + "\n" + show(report)
    assert all(d.severity == Severity.NOTE for d in report.diagnostics), where + "\n" + show(report)
    if not p.game.is_over:
        assert any(d.code == "T020" for d in report.diagnostics), where + "\n" + show(report)


REVOKE_CASES = cases_where(lambda v: v.revoke is not None)


def _revoke_game(case, seed) -> Played:
    name, n = case
    for s in range(seed, seed + 20):
        p = play(name, n, s, revokes=0.03)
        if p.revokes:
            return p
    assume(False)  # pragma: no cover
    raise AssertionError


@pytest.mark.slow
@settings(max_examples=30, **SETTINGS)
@given(case=st.sampled_from(REVOKE_CASES), seed=st.integers(0, 10**6))
def test_game_with_revokes_caught_at_the_table_checks_clean_full(case, seed):
    """Illegal cards penalized at the table (penalty, replay, the deal again): full level."""
    p = _revoke_game(case, seed)
    report = check_text(text_of(p, "full"))
    COUNTS["penalized-revoke full"] += 1
    where = describe(p, "full", f"{p.revokes} revokes")
    assert report.clean, where + "\n" + show(report)
    assert report.finished == p.game.is_over, where + "\n" + show(report)
    assert report.game is not None and report.game.totals == p.game.totals, where + "\n" + show(report)


@pytest.mark.slow
@settings(max_examples=20, **SETTINGS)
@given(case=st.sampled_from(REVOKE_CASES), seed=st.integers(0, 10**6), level=st.sampled_from(("plays", "sheet")))
def test_game_with_revokes_caught_at_the_table_checks_clean_plays_sheet(case, seed, level):
    """The same at the plays and sheet levels: "Penalty, replay ... may appear at every level".

    The illegal card cannot be proved without the hands, but the record is what the
    engine's own writer makes of the game, and the format allows it.
    """
    p = _revoke_game(case, seed)
    report = check_text(text_of(p, level))
    COUNTS[f"penalized-revoke {level}"] += 1
    where = describe(p, level, f"{p.revokes} revokes")
    assert report.clean, where + "\n" + show(report)
    assert all(d.code in ("T020", "T021") for d in report.diagnostics), where + "\n" + show(report)
    assert report.finished == p.game.is_over, where + "\n" + show(report)
    assert report.game is not None and report.game.totals == p.game.totals, where + "\n" + show(report)


@pytest.mark.slow
@settings(max_examples=40, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), level=st.sampled_from(("full", "plays")))
def test_illegal_cards_nobody_saw_are_each_reported_once_and_nothing_else(case, seed, level):
    """A game in which some illegal cards were played unnoticed and play went on with them,
    written with the scores of the cards as played: the checker reports each illegal card
    once, at its line, and nothing that follows from it (point 3 of the audit's fidelity)."""
    name, n = case
    p = next((q for s in range(seed, seed + 20) if (q := play(name, n, s, unnoticed=0.04)).unnoticed), None)
    assume(p is not None)
    assert p is not None
    doc = Doc(p, level)
    lines = []
    for number, index, _ in p.unnoticed:
        lines.append(doc.plays(number)[index].line)
    report = doc.check()
    COUNTS[f"unnoticed {level}"] += 1
    where = describe(p, level, f"{len(p.unnoticed)} illegal cards")
    assert [(d.code, d.line) for d in report.errors] == [(code, line) for (_, _, code), line
                                                         in zip(p.unnoticed, lines)], where + "\n" + show(report)
    assert report.game is not None and report.game.totals == p.game.totals, where + "\n" + show(report)


# ------------------------------------------------------------------------------ mutations


class Doc:
    """The canonical text of a game as a list of lines, with its parsed events."""

    def __init__(self, p: Played, level: str) -> None:
        self.p = p
        self.level = level
        self.text = text_of(p, level)
        self.lines = self.text.splitlines()
        t, diags = parse_transcript(self.text)
        assert t is not None and not diags
        self.t = t
        self.players = t.players
        self.blocks = t.deals()

    def block(self, number: int) -> list[Event]:
        found = [b for b in self.blocks if b[0].number == number]
        assert len(found) == 1, f"deal {number} is written {len(found)} times"
        return found[0]

    def plays(self, number: int) -> list[Event]:
        return [e for e in self.block(number) if e.kind == "play"]

    def set(self, event: Event, **changes) -> int:
        """Rewrite ``event``'s line with ``changes``; returns the line number."""
        self.lines[event.line - 1] = format_event(event.replace(comment=None, **changes), self.players)
        return event.line

    def check(self) -> CheckReport:
        return check_text("\n".join(self.lines) + "\n")


def expect(report: CheckReport, code: str, line: int | None, where: str, *, codes: tuple[str, ...] = ()) -> None:
    """An error with ``code`` (or one of ``codes``) is reported, on ``line`` when given."""
    wanted = (code, *codes)
    errors = report.errors
    hits = [d for d in errors if d.code in wanted]
    assert hits, f"{where}: expected {'/'.join(wanted)}, got:\n{show(report)}"
    if line is not None:
        assert any(d.line == line for d in hits), (
            f"{where}: expected {'/'.join(wanted)} at line {line}, got:\n{show(report)}")
    assert report.readable


def pick_from(seq, pick: int):
    return seq[pick % len(seq)]


def find_game(name: str, n: int, seed: int, want, tries: int = 25, watch: bool = True) -> Played:
    """The first game from ``seed`` on for which ``want(played)`` is true."""
    for s in range(seed, seed + tries):
        p = play(name, n, s, watch=watch)
        if want(p):
            return p
    assume(False)  # pragma: no cover - no game with the situation in the window
    raise AssertionError


# -- illegal cards: revoke, failure to trump, trumping over the led suit, demands --------------

OBLIGATION_CASES = {
    "R010": CASES,
    "R011": cases_where(lambda v: v.play.must_trump),
    "R012": cases_where(lambda v: v.play.must_trump),
    "R014": cases_where(lambda v: any(("demand" in w.lead or "highest" in w.lead) for w in v.wild)),
}


def _obligation_mutation(code: str, case, seed, pick, level) -> None:
    name, n = case
    p = find_game(name, n, seed, lambda p: any(o.code == code for o in p.obligations))
    ob = pick_from([o for o in p.obligations if o.code == code], pick)
    doc = Doc(p, level)
    plays = doc.plays(ob.deal)
    here = plays[ob.index]
    assert here.actor == ob.seat and here.play == Play(ob.played), (here, ob)
    later = [e for e in plays[ob.index + 1:] if e.actor == ob.seat and e.play is not None
             and e.play.card == ob.alt]
    # (two packs: the hand may hold the card twice; the first of them is swapped)
    assert 1 <= len(later) <= p.game.table.copies, (ob, later)
    # the player plays the card they should not have, and the right card where the other fell:
    # the hand (and at the plays level the hand rebuilt from the plays) is unchanged
    line = doc.set(here, play=Play(ob.alt))
    doc.set(later[0], play=Play(ob.played, later[0].play.declare, later[0].play.suit, later[0].play.as_card))
    report = doc.check()
    if _explained_by_another_trump(doc, ob.deal, report):
        COUNTS[f"{code} {level}, read as the card turned up"] += 1
        return
    COUNTS[f"{code} {level}"] += 1
    expect(report, code, line, describe(p, level, f"deal {ob.deal}: line {line} {doc.lines[line - 1]!r}"))


def _explained_by_another_trump(doc: Doc, deal: int, report: CheckReport) -> bool:
    """The check's one error is the card turned up (R046), and the record with a card of
    another suit there, one nobody holds or plays in the deal, has no error at all: the two
    cards swapped in one hand then read as exactly one other mistake, the trump written wrong,
    and the check is right to say so (the record cannot tell the two apart)."""
    errors = report.errors
    if [d.code for d in errors] != ["R046"]:
        return False
    block = doc.block(deal)
    turned = next((e for e in block if e.kind == "turned"), None)
    if turned is None or not turned.cards or turned.cards[0] is None:
        return False
    seen = {c for e in block for c in e.cards if c is not None} | \
           {e.play.card for e in block if e.kind == "play" and e.play is not None}
    saved = doc.lines[turned.line - 1]
    try:
        for card in _pack(doc):
            if card in seen or card.suit == turned.cards[0].suit or card.suit is None:
                continue
            doc.lines[turned.line - 1] = format_event(turned.replace(cards=(card,), comment=None), doc.players)
            if not doc.check().errors:
                return True
        return False
    finally:
        doc.lines[turned.line - 1] = saved


def _pack(doc: Doc) -> list[Card]:
    return list(doc.p.game.table.cards)


@pytest.mark.slow
@settings(max_examples=50, **SETTINGS)
@given(case=st.sampled_from(OBLIGATION_CASES["R010"]), seed=st.integers(0, 10**6),
       pick=st.integers(0, 10**6), level=st.sampled_from(("full", "plays")))
def test_revoke_is_flagged(case, seed, pick, level):
    _obligation_mutation("R010", case, seed, pick, level)


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(OBLIGATION_CASES["R011"]), seed=st.integers(0, 10**6),
       pick=st.integers(0, 10**6), level=st.sampled_from(("full", "plays")))
def test_failure_to_trump_is_flagged(case, seed, pick, level):
    _obligation_mutation("R011", case, seed, pick, level)


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(OBLIGATION_CASES["R012"]), seed=st.integers(0, 10**6),
       pick=st.integers(0, 10**6), level=st.sampled_from(("full", "plays")))
def test_trump_while_holding_led_suit_is_flagged(case, seed, pick, level):
    _obligation_mutation("R012", case, seed, pick, level)


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(OBLIGATION_CASES["R014"]), seed=st.integers(0, 10**6),
       pick=st.integers(0, 10**6), level=st.sampled_from(("full", "plays")))
def test_wrong_answer_to_demand_is_flagged(case, seed, pick, level):
    _obligation_mutation("R014", case, seed, pick, level)


# -- cards -------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_duplicated_card_in_hands_is_flagged(case, seed, pick):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, "full")
    rng = random.Random(pick)
    block = rng.choice(doc.blocks)
    hands = [e for e in block if e.kind == "hand"]
    a, b = rng.sample(hands, 2)
    j = rng.randrange(len(a.cards))
    copies = p.game.table.copies
    dealt = Counter(c for h in hands for c in h.cards) - Counter([a.cards[j]])
    # a card of another hand, dealt as often as the packs hold it (two packs: twice)
    choices = [c for c in b.cards if dealt[c] >= copies]
    assume(choices)
    stolen = rng.choice(choices)
    cards = list(a.cards)
    cards[j] = stolen
    seen = sorted([a.line] + [h.line for h in hands for k, c in enumerate(h.cards)
                              if c == stolen and not (h is a and k == j)])
    doc.set(a, cards=tuple(cards))
    report = doc.check()
    COUNTS["R043 full"] += 1
    line = seen[copies]  # the card is seen once too often at the hand that holds the extra copy
    expect(report, "R043", line, describe(p, "full", f"deal {block[0].number}: {stolen} in two hands"))


@pytest.mark.slow
@settings(max_examples=25, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_duplicated_card_in_plays_is_flagged(case, seed, pick):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, "plays")
    rng = random.Random(pick)
    block = rng.choice(doc.blocks)
    plays = [e for e in block if e.kind == "play"]
    a = rng.choice(plays)
    # a card of another player written as often as the packs hold it (two packs: twice)
    copies = p.game.table.copies
    written = Counter(e.play.card for e in plays if e is not a)
    others = [e for e in plays if e.actor != a.actor and written[e.play.card] >= copies]
    assume(others)
    b = rng.choice(others)
    line = doc.set(a, play=Play(b.play.card))
    report = doc.check()
    COUNTS["R043 plays"] += 1
    last = max(e.line for e in plays if e is not a and e.play.card == b.play.card)
    expect(report, "R043", max(a.line, last),
           describe(p, "plays", f"deal {block[0].number}: line {line} {doc.lines[line - 1]!r}"))


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_card_not_in_hand_is_flagged(case, seed, pick):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, "full")
    rng = random.Random(pick)
    block = rng.choice(doc.blocks)
    plays = [e for e in block if e.kind == "play"]
    e = rng.choice(plays)
    own = next(h for h in block if h.kind == "hand" and h.actor == e.actor)
    foreign = [c for c in p.game.table.cards if c not in own.cards]
    card = rng.choice(foreign)
    line = doc.set(e, play=Play(card))
    report = doc.check()
    COUNTS["R013 full"] += 1
    expect(report, "R013", line, describe(p, "full", f"deal {block[0].number}: line {line} {doc.lines[line - 1]!r}"))


@pytest.mark.slow
@settings(max_examples=25, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_card_not_in_pack_is_flagged(case, seed, pick):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, "full")
    rng = random.Random(pick)
    pack = set(p.game.table.cards)
    strangers = [Card.parse(c) for c in ("2C", "2H", "5D", "JK", "JK2") if Card.parse(c) not in pack]
    assume(strangers)  # (a pack of 52 cards and two jokers holds every card there is)
    block = rng.choice(doc.blocks)
    hand = rng.choice([e for e in block if e.kind == "hand"])
    cards = list(hand.cards)
    cards[rng.randrange(len(cards))] = rng.choice(strangers)
    line = doc.set(hand, cards=tuple(cards))
    report = doc.check()
    COUNTS["R044 full"] += 1
    expect(report, "R044", line, describe(p, "full", f"line {line} {doc.lines[line - 1]!r}"))


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_short_hand_is_flagged(case, seed, pick):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, "full")
    rng = random.Random(pick)
    block = rng.choice(doc.blocks)
    hand = rng.choice([e for e in block if e.kind == "hand"])
    cards = list(hand.cards)
    del cards[rng.randrange(len(cards))]
    line = doc.set(hand, cards=tuple(cards))
    report = doc.check()
    COUNTS["R041 full"] += 1
    expect(report, "R041", line, describe(p, "full", f"line {line} {doc.lines[line - 1]!r}"))


# -- bids ----------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=40, **SETTINGS)
@given(case=st.sampled_from(cases_where(lambda v: v.bidding.hook)), seed=st.integers(0, 10**6),
       pick=st.integers(0, 10**6), level=st.sampled_from(LEVELS))
def test_hook_violation_is_flagged(case, seed, pick, level):
    name, n = case
    p = find_game(name, n, seed, lambda p: bool(p.hooks))
    number, seat, forbidden = pick_from(p.hooks, pick)
    doc = Doc(p, level)
    bid = next(e for e in doc.block(number) if e.kind == "bid" and e.actor == seat)
    assert bid.number != forbidden
    line = doc.set(bid, number=forbidden)
    report = doc.check()
    COUNTS[f"R021 {level}"] += 1
    expect(report, "R021", line, describe(p, level, f"deal {number}: line {line} {doc.lines[line - 1]!r}"))


# -- who plays ----------------------------------------------------------------------------------


def _rotate_trick(doc: Doc, number: int, trick: int) -> int:
    """Move the first play of ``trick`` to the end of the trick: someone else leads it."""
    n = len(doc.players)
    plays = doc.plays(number)[trick * n:(trick + 1) * n]
    first_line = plays[0].line
    assert [e.line for e in plays] == list(range(first_line, first_line + n))
    texts = [doc.lines[e.line - 1] for e in plays]
    doc.lines[first_line - 1:first_line - 1 + n] = texts[1:] + texts[:1]
    return first_line


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(("full", "plays")))
def test_wrong_trick_winner_leading_is_flagged(case, seed, pick, level):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    rng = random.Random(pick)
    blocks = [b for b in doc.blocks if len([e for e in b if e.kind == "play"]) >= 2 * n]
    assume(blocks)
    block = rng.choice(blocks)
    tricks = len([e for e in block if e.kind == "play"]) // n
    trick = rng.randrange(1, tricks)
    line = _rotate_trick(doc, block[0].number, trick)
    report = doc.check()
    COUNTS[f"R003 {level}"] += 1
    expect(report, "R003", line, describe(p, level, f"deal {block[0].number} trick {trick + 1}: line {line}"),
           codes=("R001",))


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(("full", "plays")))
def test_wrong_first_leader_is_flagged(case, seed, pick, level):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    rng = random.Random(pick)
    block = rng.choice(doc.blocks)
    line = _rotate_trick(doc, block[0].number, 0)
    report = doc.check()
    COUNTS[f"R001 {level}"] += 1
    expect(report, "R001", line, describe(p, level, f"deal {block[0].number} trick 1: line {line}"),
           codes=("R003",))


# -- the deal header ------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(LEVELS))
def test_wrong_dealer_is_flagged(case, seed, pick, level):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    rng = random.Random(pick)
    head = rng.choice(doc.blocks)[0]
    other = rng.choice([s for s in range(n) if s != head.actor])
    line = doc.set(head, actor=other)
    report = doc.check()
    COUNTS[f"R042 {level}"] += 1
    expect(report, "R042", line, describe(p, level, f"line {line} {doc.lines[line - 1]!r}"))


@settings(max_examples=20, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(LEVELS))
def test_wrong_deal_number_is_flagged(case, seed, pick, level):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    rng = random.Random(pick)
    head = rng.choice(doc.blocks)[0]
    line = doc.set(head, number=head.number + rng.choice((-1, 1, 2, 7)))
    report = doc.check()
    COUNTS[f"R040 {level}"] += 1
    expect(report, "R040", line, describe(p, level, f"line {line} {doc.lines[line - 1]!r}"))


# -- the score sheet ------------------------------------------------------------------------------


def _change_amount(doc: Doc, kind: str, rng: random.Random) -> tuple[int, int]:
    lines = [e for b in doc.blocks for e in b if e.kind == kind]
    e = rng.choice(lines)
    seat = rng.randrange(len(doc.players))
    amounts = list(e.amounts)
    amounts[seat] = (amounts[seat] or 0) + rng.choice((-10, -1, 1, 5, 50))
    return doc.set(e, amounts=tuple(amounts)), seat


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(LEVELS))
def test_wrong_deal_score_is_flagged(case, seed, pick, level):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    line, _ = _change_amount(doc, "score", random.Random(pick))
    report = doc.check()
    COUNTS[f"R050 {level}"] += 1
    expect(report, "R050", line, describe(p, level, f"line {line} {doc.lines[line - 1]!r}"))
    assert not [d for d in report.errors if d.code != "R050"], describe(p, level) + "\n" + show(report)


@pytest.mark.slow
@settings(max_examples=35, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(LEVELS))
def test_wrong_running_total_is_flagged(case, seed, pick, level):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    line, _ = _change_amount(doc, "total", random.Random(pick))
    report = doc.check()
    COUNTS[f"R051 {level}"] += 1
    expect(report, "R051", line, describe(p, level, f"line {line} {doc.lines[line - 1]!r}"))
    # one wrong total is one error: the totals after it are judged on the engine's own sums
    assert [d.code for d in report.errors] == ["R051"], describe(p, level) + "\n" + show(report)


@settings(max_examples=20, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_tricks_not_adding_up_on_a_sheet_are_flagged(case, seed, pick):
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, "sheet")
    rng = random.Random(pick)
    block = rng.choice(doc.blocks)
    took = rng.choice([e for e in block if e.kind == "took"])
    doc.set(took, number=took.number + 1)
    report = doc.check()
    COUNTS["R053 sheet"] += 1
    where = describe(p, "sheet", f"deal {block[0].number}: line {took.line}")
    # Where the scores tell whose number is wrong, the check says so at that line (R052);
    # else that the tricks do not add up (R053).
    if any(d.code == "R052" for d in report.errors):
        expect(report, "R052", took.line, where)
    else:
        expect(report, "R053", None, where)


# -- lines lost or shuffled -----------------------------------------------------------------------


@settings(max_examples=40, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(LEVELS))
# a play lost from the last deal of a finished game (score, total and settlement follow)
@pytest.mark.slow
@example(case=("up-and-down-online", 4), seed=10246, pick=9523, level="plays")
def test_deleting_a_needed_line_is_flagged(case, seed, pick, level):
    """A play, bid, hand, took, deal or named-trump line cannot just go missing."""
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    needed = [e for e in doc.t.events if e.kind in ("play", "bid", "hand", "took", "deal")
              or (e.kind == "trump" and e.actor is not None)]
    e = pick_from(needed, pick)
    gone = doc.lines[e.line - 1]
    del doc.lines[e.line - 1]
    report = doc.check()
    COUNTS[f"deleted-line {level}"] += 1
    assert report.readable
    assert report.errors, describe(p, level, f"line {e.line} {gone!r} deleted") + "\n" + show(report)


@pytest.mark.slow
@settings(max_examples=40, **SETTINGS)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6),
       level=st.sampled_from(LEVELS))
def test_shuffled_lines_never_crash_the_checker(case, seed, pick, level):
    """Lines deleted, repeated, swapped or moved: the checker reports, it does not raise."""
    name, n = case
    p = play(name, n, seed)
    doc = Doc(p, level)
    rng = random.Random(pick)
    body = [i for i, e in enumerate(doc.lines) if i >= doc.t.events[0].line - 1 and e.strip()]
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(("delete", "repeat", "swap", "move"))
        i = rng.choice(body[:-1])
        if op == "delete":
            doc.lines[i] = ""
        elif op == "repeat":
            doc.lines.insert(i, doc.lines[i])
        elif op == "swap":
            doc.lines[i], doc.lines[i + 1] = doc.lines[i + 1], doc.lines[i]
        else:
            doc.lines.insert(rng.choice(body), doc.lines.pop(i))
    report = doc.check()
    COUNTS[f"shuffled {level}"] += 1
    assert report.readable, show(report)
    assert report.finished in (True, False)


# ------------------------------------------------------------------------------ the counts


def test_zz_report_counts():
    """Runs last: how many mutated games each property checked."""
    if not COUNTS:
        pytest.skip("no mutation property ran in this session")
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(COUNTS.items()))
    print(f"\nmutated games checked: {summary}")
    classes = {k.split()[0] for k in COUNTS}
    expected = {"R001", "R003", "R010", "R011", "R012", "R013", "R014", "R021", "R040", "R041", "R042",
                "R043", "R044", "R050", "R051", "R053"}
    ran_all = len(COUNTS) >= 20  # the whole file ran (not a -k selection)
    if ran_all:
        assert expected <= classes, f"classes without a mutated game: {sorted(expected - classes)}"
