"""A record goes on after a mistake, and its unknown cards are read (records/infer.py).

Every expected number is worked out by hand in the comments, from the variant's scoring
formula, not taken from the checker.
"""

from __future__ import annotations

import random

import pytest

from updown_dsl import Play
from updown_dsl.diagnostics import Severity
from updown_dsl.engine import Game
from updown_dsl.records.checker import check_text
from updown_dsl.records.infer import Step, read_unknown

from gamekit import game_at
from test_checker import (ODESSA3, ODESSA_DEALS_1_2, TC04_DEAL, TC04_PLAYED_ON, UD3_PLAYS, UD_DEAL_1, UD_DEAL_2,
                          _plays_level, doc, errors, show)


def line_of(text: str, content: str) -> int:
    hits = [i + 1 for i, raw in enumerate(text.splitlines()) if raw.split("#")[0].strip() == content]
    assert len(hits) == 1, f"{content!r} is not once in the text"
    return hits[0]


# Up and Down, three players, the plays level (scoring: taken + 10 for an exact bid): deals 1
# and 2 of tests/test_checker.py, totals Anna 12, Boris 21, Vera 10.
UD3 = UD3_PLAYS + UD_DEAL_1 + UD_DEAL_2

# Deal 3 (dealer Boris, eldest Vera, trump diamonds), two revokes by two players:
# trick 1: Vera AH, Anna 7C (she plays 6H in trick 2: she held a heart), Boris 8H -> Vera;
# trick 2: Vera 5C, Anna 6H, Boris JS (he plays 2C in trick 3: he held a club) -> Vera;
# trick 3: Vera 9S, Anna QS, Boris 2C -> Anna.
# Vera 2/2 = 12, Anna 1/1 = 11, Boris 0/0 = 10; totals 23, 31, 22.
DEAL_3 = doc("""

    deal 3 cards 3 dealer Boris
    turned 2D
    Vera bid 2
    Anna bid 1
    Boris bid 0
    Vera play AH
    Anna play 7C
    Boris play 8H
    Vera play 5C
    Anna play 6H
    Boris play JS
    Vera play 9S
    Anna play QS
    Boris play 2C
    score Anna 11 Boris 10 Vera 12
    total Anna 23 Boris 31 Vera 22
    """)


def test_two_independent_revokes_in_one_deal_are_both_reported():
    text = UD3 + DEAL_3
    report = check_text(text)
    assert errors(report) == [("R010", line_of(text, "Anna play 7C")),
                              ("R010", line_of(text, "Boris play JS"))], show(report)
    # the deal is scored with the cards as played: the totals are the record's
    assert report.game is not None and report.game.totals == (23, 31, 22)


def test_a_revoke_does_not_hide_a_wrong_score_after_it():
    text = UD3 + DEAL_3.replace("score Anna 11 Boris 10 Vera 12", "score Anna 11 Boris 10 Vera 13")
    report = check_text(text)
    # Vera's 13 is wrong (12), and her total 22 is right: one R050, no R051.
    assert errors(report) == [("R010", line_of(text, "Anna play 7C")),
                              ("R010", line_of(text, "Boris play JS")),
                              ("R050", line_of(text, "score Anna 11 Boris 10 Vera 13"))], show(report)


def test_one_unknown_card_still_proves_the_revokes_of_the_others():
    # Vera's last card is not known. Whatever it was, Anna and Boris revoked; for the record's
    # scores (Anna takes trick 3) it was a spade below the queen or a card of no use.
    text = UD3 + DEAL_3.replace("Vera play 9S", "Vera play ??")
    report = check_text(text)
    assert errors(report) == [("R010", line_of(text, "Anna play 7C")),
                              ("R010", line_of(text, "Boris play JS"))], show(report)
    t021 = [d for d in report.diagnostics if d.code == "T021"]
    assert [(d.severity, d.line) for d in t021] == [(Severity.NOTE, line_of(text, "Vera play ??"))]
    assert report.game is not None and report.game.totals == (23, 31, 22)


def test_an_unknown_card_that_explains_a_play_gives_no_error():
    # Anna's 7C on the heart lead is a revoke only if she held a heart: with her heart of
    # trick 2 unknown, nothing shows that she did.
    text = UD3 + DEAL_3.replace("Anna play 6H", "Anna play ??").replace("Boris play JS", "Boris play 2C", 1) \
        .replace("Boris play 2C\nscore", "Boris play JS\nscore")
    # Boris now follows clubs in trick 2 (2C) and plays JS last: his play is legal.
    # Trick 2: Vera 5C, Anna ??, Boris 2C -> Vera (if ?? is no trump); trick 3: Vera 9S, Anna QS,
    # Boris JS -> Anna. The same tricks: Vera 2, Anna 1, Boris 0.
    report = check_text(text)
    assert report.clean, show(report)
    assert [d.code for d in report.diagnostics] == ["T021", "T020"], show(report)


# Odessa, three players (36 cards: 6 to ace): TC-04 of tests/test_checker.py with nobody seeing
# Boris's revoke in deal 3 (QD on the spade lead while he holds 9S, which he plays in trick 3),
# and Vera's last card, the AC that takes trick 3, written 2C, a card the 36-card pack lacks.
# Anna 2/2 = 15, Boris 0/0 = 5, Vera passed and took 1: 1. Totals -15, 25, 1.
ODESSA_FULL = (ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + TC04_PLAYED_ON).replace(
    "Vera play AC", "Vera play 2C")
ODESSA_PLAYS = _plays_level(ODESSA_FULL)


def test_a_card_not_in_the_pack_does_not_hide_an_earlier_revoke():
    text = ODESSA_PLAYS
    report = check_text(text)
    assert errors(report) == [("R044", line_of(text, "Vera play 2C")),
                              ("R010", line_of(text, "Boris play QD"))], show(report)
    note = next(d for d in report.diagnostics if d.code == "T021")
    assert "cannot be" in note.message and note.line == line_of(text, "Vera play 2C")
    assert report.game is not None and report.game.totals == (-15, 25, 1)


def test_a_wrong_leader_after_a_revoke_is_its_consequence_not_a_second_mistake():
    # Boris's revoke in trick 1 is written as if his QD had not been played: the record goes
    # on with Boris leading trick 2, which he would not if Anna's AS won. That lead is not
    # reported: the table may have judged trick 1 otherwise. Trick 2 is then checked as the
    # record shows it led: Anna's KD on Boris's club lead, while she holds 7C, is a revoke of
    # its own (it does not follow from Boris's).
    text = ODESSA_PLAYS.replace("Anna play KD\nBoris play 8C\nVera play 10D",
                                "Boris play 8C\nVera play 10D\nAnna play KD")
    report = check_text(text)
    assert errors(report) == [("R044", line_of(text, "Vera play 2C")), ("R010", line_of(text, "Boris play QD")),
                              ("R010", line_of(text, "Anna play KD"))], show(report)


def _full_level(text: str, hands: dict[str, dict[str, str]]) -> str:
    """The record at the full level, with the hands of the deals given (by deal line)."""
    text = text.replace("level: plays", "level: full")
    for deal, cards in hands.items():
        lines = "".join(f"hand {name} {h}\n" for name, h in cards.items())
        text = text.replace(deal + "\n", deal + "\n" + lines)
    return text


UD3_HANDS = {"deal 1 cards 1 dealer Vera": {"Anna": "AH", "Boris": "5H", "Vera": "3D"},
             "deal 2 cards 2 dealer Anna": {"Anna": "7H 10C", "Boris": "KH 8C", "Vera": "4H 9D"}}


def test_full_level_hands_with_unknown_cards_are_read_from_the_plays():
    # Deal 3's hands are written with cards nobody saw, and every card of the deal is played:
    # the plays show them, and both revokes are proved.
    hands = {**UD3_HANDS, "deal 3 cards 3 dealer Boris": {"Anna": "?? ?? QS", "Boris": "8H JS ??",
                                                          "Vera": "AH 5C 9S"}}
    text = _full_level(UD3 + DEAL_3, hands)
    report = check_text(text)
    assert errors(report) == [("R010", line_of(text, "Anna play 7C")),
                              ("R010", line_of(text, "Boris play JS"))], show(report)
    assert report.game is not None and report.game.totals == (23, 31, 22)


def test_a_full_level_hand_card_not_in_the_pack_does_not_hide_a_revoke():
    # Vera's AC is written 2C in her hand and where she plays it: both are reported, the
    # card is read from the rest of the record, and Boris's revoke is still found.
    text = ODESSA_FULL.replace("hand Vera JS 10D AC", "hand Vera JS 10D 2C")
    report = check_text(text)
    assert errors(report) == [("R044", line_of(text, "hand Vera JS 10D 2C")),
                              ("R044", line_of(text, "Vera play 2C")),
                              ("R010", line_of(text, "Boris play QD"))], show(report)
    assert report.game is not None and report.game.totals == (-15, 25, 1)


# ----------------------------------------------------------------------------- read_unknown itself


def _random_deal(seed: int) -> tuple[Game, list[list], list[Step], dict]:
    """Oh Hell before its 5-card deal (4 players), the hands of a random deal (in play order),
    its steps and the dealing's arguments. A third of the cards that could be illegal are
    (played with ``play_as_written``), so that the readings break rules."""
    rng = random.Random(seed)
    before = game_at("oh-hell", 4, 5)
    game = before.clone()
    order = list(game.table.cards)
    rng.shuffle(order)
    game.deal_from_order(order)
    deal = dict(turned=game.turned)
    steps: list[Step] = []
    while game.deal.number == 5:
        seat = game.to_act
        illegal = [Play(c) for c in game.hand(seat) if game.check(Play(c)) is not None] \
            if game.trick and len(game.tricks) < 4 else []
        if illegal and rng.random() < 0.3:
            action = rng.choice(illegal)
            assert game.play_as_written(action)
        else:
            action = rng.choice(game.legal_actions())
            game.apply(action)
        steps.append(Step(seat, action))
    hands: list[list] = [[] for _ in range(4)]
    for s in steps:
        if isinstance(s.action, Play):
            hands[s.actor].append(s.action.card)
    return before, hands, steps, deal


@pytest.mark.slow
def test_reading_only_the_last_trick_by_players_finds_the_best_reading_of_all():
    # The quick way (the last trick unknown: rules broken add up player by player) gives
    # the same cost as trying every reading.
    costs = []
    for seed in range(5):
        before, hands, steps, deal = _random_deal(seed)
        last = [i for i, s in enumerate(steps) if isinstance(s.action, Play)][-4:]
        unknown = [list(h) for h in hands]
        pool = []
        for i in last:
            seat = steps[i].actor
            pool.append(unknown[seat][-1])
            unknown[seat][-1] = None
            steps[i] = Step(seat, None)
        known = {c for h in unknown for c in h if c is not None} | {deal["turned"]}
        pool += [c for c in before.table.cards if c not in known and c not in pool][:5]  # 9*8*7*6 readings
        everything = read_unknown(before, unknown, pool, steps, deal, {}, (), limit=10**6)
        quick = read_unknown(before, unknown, pool, steps, deal, {}, (), limit=200)  # 36 + at most 200 replays
        assert everything is not None and quick is not None, seed
        assert quick.cost == everything.cost, (seed, quick.cost, everything.cost)
        costs.append(everything.cost)
        assert everything.readings == quick.readings == 9 * 8 * 7 * 6
    assert any(0 < broken < 1000 for broken, _, _ in costs), costs  # readings that break rules


def test_too_many_readings_are_not_tried():
    before, hands, steps, deal = _random_deal(0)
    unknown = [list(h) for h in hands]
    for i, s in enumerate(steps):
        if isinstance(s.action, Play) and s.actor == 0:
            steps[i] = Step(0, None)
    unknown[0] = [None] * 5  # five unknown cards, not only in the last trick: 47 * 46 * 45 * 44 * 43
    assert read_unknown(before, unknown, list(before.table.cards), steps, deal, {}, ()) is None


def test_a_record_full_of_unknown_cards_reads_only_so_many(monkeypatch):
    # Each deal's first card unknown: every deal is read until the record's budget of
    # readings (here five deals' worth) is spent; the rest are noted and left unchecked.
    import random as _random

    from updown_dsl import load_variant
    from updown_dsl.records import infer
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    monkeypatch.setattr(infer, "READINGS", 60)
    monkeypatch.setattr(infer, "RECORD_READINGS", 5 * 60)
    game = Game(load_variant("up-and-down"), 3, seed=4)
    rng = _random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    lines = format_transcript(game_transcript(game, level="plays", variant="up-and-down")).splitlines()
    first_plays = [next(i for i in range(k, len(lines)) if " play " in lines[i])
                   for k, line in enumerate(lines) if line.startswith("deal ")]
    for i in first_plays:
        lines[i] = lines[i].split(" play ")[0] + " play ??"
    report = check_text("\n".join(lines) + "\n")
    assert report.clean, show(report)
    notes = [d.message for d in report.diagnostics if d.code == "T021"]
    assert len(notes) == len(first_plays)
    read = [m for m in notes if "read as" in m]
    assert 5 <= len(read) < len(notes)
    assert all("too many unknown cards to read them all" in m for m in notes[len(read):]), notes
