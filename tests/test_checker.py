"""Hand-written transcripts for specific checker cases (docs/worked-cases.md, the transcript format).

Every expected number below is worked out by hand in the comments, from the variant's
scoring formula, not taken from the checker.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from updown_dsl import Card, Game, Play, load_variant
from updown_dsl.records.checker import CheckReport, check_text
from updown_dsl.diagnostics import Severity
from updown_dsl.engine import Phase
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript


def doc(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def line_of(text: str, content: str, nth: int = 0) -> int:
    """The 1-based number of the ``nth`` line equal to ``content`` (comments ignored)."""
    hits = [i + 1 for i, raw in enumerate(text.splitlines()) if raw.split("#")[0].strip() == content]
    assert len(hits) > nth, f"{content!r} is not in the text"
    return hits[nth]


def show(report: CheckReport) -> str:
    return "\n".join(str(d) for d in report.diagnostics) or "(no diagnostics)"


def errors(report: CheckReport) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in report.errors]


def notes(report: CheckReport) -> list[str]:
    return [d.code for d in report.diagnostics if d.severity == Severity.NOTE]


def only_notes(report: CheckReport, *codes: str) -> None:
    assert report.readable, show(report)
    assert report.clean, show(report)
    assert all(d.severity == Severity.NOTE for d in report.diagnostics), show(report)
    assert sorted(set(notes(report))) == sorted(codes), show(report)


# ----------------------------------------------------------------------------- Odessa, TC-04

ODESSA3 = """\
variant: odessa
players: Anna Boris Vera
first-dealer: Anna
level: full
"""

# Deal 1 (dealer Anna, eldest Boris, trump hearts): Boris 1/1 = 10, Vera 0/0 = 5 (pass),
# Anna bid 1 (the hook forbids 0: 1 - 1) and took 0: -10 * 1 = -10.
# Deal 2 (dealer Boris, trump clubs): Vera leads 10D, Anna is void and must trump (10C),
# Boris must trump too (QC) and wins; Boris leads 9H, Vera KH wins, Anna 10S.
# Anna 2/0 = -20, Boris 1/1 = 10, Vera 2/1 = -5 * (2 - 1) = -5.
ODESSA_DEALS_1_2 = """\

deal 1 cards 1 dealer Anna
hand Anna JD
hand Boris KD
hand Vera QD
turned JH
Boris bid 1
Vera bid 0
Anna bid 1
Boris play KD
Vera play QD
Anna play JD
score Anna -10 Boris 10 Vera 5
total Anna -10 Boris 10 Vera 5

deal 2 cards 2 dealer Boris
hand Anna 10S 10C
hand Boris 9H QC
hand Vera KH 10D
turned 8C
Vera bid 2
Anna bid 2
Boris bid 1
Vera play 10D
Anna play 10C
Boris play QC
Boris play 9H
Vera play KH
Anna play 10S
score Anna -20 Boris 10 Vera -5
total Anna -30 Boris 20 Vera 0
"""

# Deal 3 is TC-04: n = 3, turned 10H, Anna 2, Boris 0, Vera forbidden 3 - 2 = 1 -> 0.
TC04_DEAL = """\

deal 3 cards 3 dealer Vera
hand Anna AS KD 7C
hand Boris 9S QD 8C
hand Vera JS 10D AC
turned 10H
Anna bid 2
Boris bid 0
Vera bid 0
Anna play AS
Boris play QD
"""

# TC-04 written as if nobody saw the revoke: AS, QD, JS -> Anna; KD, 8C, 10D -> Anna;
# 7C, 9S, AC -> Vera. Anna 2/2 = 15, Boris 0/0 = 5, Vera passed and took 1: 1.
TC04_PLAYED_ON = """\
Vera play JS
Anna play KD
Boris play 8C
Vera play 10D
Anna play 7C
Boris play 9S
Vera play AC
score Anna 15 Boris 5 Vera 1
total Anna -15 Boris 25 Vera 1
"""

# The deal dealt again (dealer Vera, trump spades, nobody holds one): Anna AH, Boris 8H,
# Vera 6H -> Anna; Anna KH, Boris 9C (void, no trump), Vera JC -> Anna; Anna 7C, Boris QD,
# Vera 10D -> Anna (the only club). Anna bid 2 took 3: over = 3; Boris 0/0 = 5; Vera 0/0 = 5.
# Totals: Anna -30 + 3 = -27, Boris -30 + 5 = -25, Vera 0 + 5 = 5.
TC04_REPLAY = """\

deal 3 cards 3 dealer Vera
hand Anna AH KH 7C
hand Boris 9C QD 8H
hand Vera 10D 6H JC
turned AS
Anna bid 2
Boris bid 0
Vera bid 0
Anna play AH
Boris play 8H
Vera play 6H
Anna play KH
Boris play 9C
Vera play JC
Anna play 7C
Boris play QD
Vera play 10D
score Anna 3 Boris 5 Vera 5
total Anna -27 Boris -25 Vera 5
"""


def test_deals_before_tc04_are_clean():
    report = check_text(ODESSA3 + ODESSA_DEALS_1_2)
    only_notes(report, "T020")
    assert report.game is not None and report.game.totals == (-30, 20, 0)


def test_an_unfinished_record_says_where_it_stops_at_its_last_line():
    text = ODESSA3 + ODESSA_DEALS_1_2
    (note,) = check_text(text).diagnostics
    assert note.code == "T020" and note.message.startswith("the record stops after deal 2 of ")
    assert note.line == len(text.rstrip("\n").splitlines())  # the last line: in an archive, its game
    started = text + "\ndeal 3 cards 3 dealer Vera\nhand Boris 9S QD 10D\n"
    (note,) = check_text(started).diagnostics
    assert note.message.startswith("the record stops in deal 3 of ")


def test_tc04_revoke_caught_at_the_table_with_penalty_and_replay_is_clean():
    # Boris holds 9S but plays QD: -50 to Boris, the deal is annulled and dealt again.
    text = ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + (
        "penalty Boris -50 R010\n"
        "replay\n"
        "total Anna -30 Boris -30 Vera 0\n"
    ) + TC04_REPLAY
    report = check_text(text)
    only_notes(report, "T020")
    assert not report.finished
    assert report.game is not None and report.game.totals == (-27, -25, 5)
    assert report.game.deal.number == 4


def test_tc04_revoke_without_penalty_is_r010_at_the_play():
    text = ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + TC04_PLAYED_ON
    report = check_text(text)
    assert errors(report) == [("R010", line_of(text, "Boris play QD"))], show(report)
    assert report.readable


def test_tc04_revoke_at_the_last_line_of_the_record_is_still_reported():
    text = ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL
    report = check_text(text)
    assert errors(report) == [("R010", line_of(text, "Boris play QD"))], show(report)


def test_tc04_penalty_with_wrong_points_is_r055():
    text = ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + (
        "penalty Boris -40 R010\n"
        "replay\n"
        "total Anna -30 Boris -30 Vera 0\n"
    ) + TC04_REPLAY
    report = check_text(text)
    assert ("R055", line_of(text, "penalty Boris -40 R010")) in errors(report), show(report)
    assert {code for code, _ in errors(report)} == {"R055"}, show(report)


def test_tc04_penalty_on_the_wrong_player_is_r055():
    text = ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + (
        "penalty Anna -50 R010\n"
        "replay\n"
    )
    report = check_text(text)
    assert ("R055", line_of(text, "penalty Anna -50 R010")) in errors(report), show(report)


def test_penalty_naming_the_wrong_rule_is_r055():
    # Boris's QD is a revoke (R010: he holds 9S), not a failure to trump (R011).
    text = ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + (
        "penalty Boris -50 R011\n"
        "replay\n"
        "total Anna -30 Boris -30 Vera 0\n"
    ) + TC04_REPLAY
    report = check_text(text)
    line = line_of(text, "penalty Boris -50 R011")
    assert any(d.code == "R055" and d.line == line for d in report.diagnostics), show(report)


def _plays_level(text: str) -> str:
    """The same record without its hands: what a player at the table saw."""
    kept = [raw for raw in text.splitlines() if not raw.startswith("hand ")]
    return "\n".join(kept).replace("level: full", "level: plays") + "\n"


def test_tc04_at_the_plays_level_with_penalty_and_replay_is_clean():
    # Without the hands the revoke cannot be proved, but the record is as the format says:
    # the illegal card, the penalty, replay, the totals, and the deal again.
    text = _plays_level(ODESSA3 + ODESSA_DEALS_1_2 + TC04_DEAL + (
        "penalty Boris -50 R010\n"
        "replay\n"
        "total Anna -30 Boris -30 Vera 0\n"
    ) + TC04_REPLAY)
    report = check_text(text)
    assert report.clean, show(report)
    assert set(notes(report)) <= {"T020", "T021"}, show(report)
    assert report.game is not None and report.game.totals == (-27, -25, 5), show(report)
    assert report.game.deal.number == 4, show(report)


ODESSA3_SHEET_TC04 = """\
variant: odessa
players: Anna Boris Vera
first-dealer: Anna
level: sheet

deal 1 cards 1 dealer Anna
trump H
Boris bid 1
Vera bid 0
Anna bid 1
Anna took 0
Boris took 1
Vera took 0
score Anna -10 Boris 10 Vera 5
total Anna -10 Boris 10 Vera 5

deal 2 cards 2 dealer Boris
trump C
Vera bid 2
Anna bid 2
Boris bid 1
Anna took 0
Boris took 1
Vera took 1
score Anna -20 Boris 10 Vera -5
total Anna -30 Boris 20 Vera 0

deal 3 cards 3 dealer Vera
trump H
Anna bid 2
Boris bid 0
Vera bid 0
penalty Boris {points} R010
replay
total Anna -30 Boris -30 Vera 0

deal 3 cards 3 dealer Vera
trump S
Anna bid 2
Boris bid 0
Vera bid 0
Anna took 3
Boris took 0
Vera took 0
score Anna 3 Boris 5 Vera 5
total Anna -27 Boris -25 Vera 5
"""


def test_tc04_on_a_score_sheet_is_clean():
    # "Penalty, replay, cut, settlement and comment lines may appear at every level."
    report = check_text(ODESSA3_SHEET_TC04.format(points=-50))
    assert report.clean, show(report)
    assert set(notes(report)) <= {"T020", "T021"}, show(report)
    assert report.game is not None and report.game.totals == (-27, -25, 5), show(report)


def test_tc04_on_a_score_sheet_with_wrong_points_is_r055():
    text = ODESSA3_SHEET_TC04.format(points=-40)
    report = check_text(text)
    assert ("R055", line_of(text, "penalty Boris -40 R010")) in errors(report), show(report)


def test_penalty_without_replay_by_option_lets_the_deal_go_on():
    # With `penalties.revoke.replay=false` the card is taken back and the deal goes on:
    # AS 9S JS -> Anna; KD QD 10D -> Anna; 7C 8C AC -> Vera. Anna 2/2 = 15, Boris 0/0 = 5,
    # Vera 0/1 = 1. Totals: Anna -30 + 15, Boris 20 - 50 + 5, Vera 0 + 1.
    text = ODESSA3.replace("players:", "option: penalties.revoke.replay=false\nplayers:") + ODESSA_DEALS_1_2 \
        + TC04_DEAL + doc("""
        penalty Boris -50 R010
        Boris play 9S
        Vera play JS
        Anna play KD
        Boris play QD
        Vera play 10D
        Anna play 7C
        Boris play 8C
        Vera play AC
        score Anna 15 Boris 5 Vera 1
        total Anna -15 Boris -25 Vera 1
        """)
    report = check_text(text)
    only_notes(report, "T020")
    assert report.game is not None and report.game.totals == (-15, -25, 1)


ABANDON3 = ODESSA3.replace("players:", "option: penalties.revoke.then=abandon\nplayers:")

# With `then: abandon` the deal stops at the penalty and the table decides its scores: here
# Anna 10 (she had taken a trick), Boris 0, Vera 5. Totals: Anna -30 + 10 = -20,
# Boris 20 - 50 = -30, Vera 0 + 5 = 5; deal 4 comes next.
TC04_ABANDONED = doc("""
    penalty Boris -50 R010
    score Anna 10 Boris 0 Vera 5
    total Anna -20 Boris -30 Vera 5
    """)


def test_penalty_that_abandons_the_deal_takes_the_scores_the_table_decided():
    text = ABANDON3 + ODESSA_DEALS_1_2 + TC04_DEAL + TC04_ABANDONED
    report = check_text(text)
    only_notes(report, "T020")
    assert report.game is not None and report.game.totals == (-20, -30, 5)
    assert report.game.deal.number == 4
    # the same at the plays level and on the score sheet
    assert check_text(_plays_level(text)).clean
    sheet = ODESSA3_SHEET_TC04.split("penalty Boris")[0].replace(
        "players:", "option: penalties.revoke.then=abandon\nplayers:") + TC04_ABANDONED
    report = check_text(sheet)
    only_notes(report, "T020")
    assert report.game is not None and report.game.totals == (-20, -30, 5)


def test_penalty_that_abandons_the_deal_still_checks_the_totals():
    text = ABANDON3 + ODESSA_DEALS_1_2 + TC04_DEAL + TC04_ABANDONED.replace("Boris -30", "Boris 20")
    report = check_text(text)
    assert errors(report) == [("R051", line_of(text, "total Anna -20 Boris 20 Vera 5"))], show(report)


def test_cards_after_a_penalty_that_abandons_the_deal_are_r055():
    text = ABANDON3 + ODESSA_DEALS_1_2 + TC04_DEAL + "penalty Boris -50 R010\nVera play JS\n"
    report = check_text(text)
    assert errors(report) == [("R055", line_of(text, "Vera play JS"))], show(report)


def test_the_revoke_hint_gives_the_form_the_variant_takes():
    def hint(header: str) -> str:
        report = check_text(header + ODESSA_DEALS_1_2 + TC04_DEAL)
        return next(d.hint for d in report.diagnostics if d.code == "R010") or ""

    assert "'penalty Boris -50 R010' on the next line, then 'replay'" in hint(ODESSA3)
    assert "then the deal's scores as the table decided them" in hint(ABANDON3)
    play_on = ODESSA3.replace("players:", "option: penalties.revoke.then=play_on\nplayers:")
    assert "the deal goes on" in hint(play_on)


def test_penalty_without_an_illegal_card_is_r055():
    text = ODESSA3 + ODESSA_DEALS_1_2 + "penalty Boris -50 R010\nreplay\n"
    report = check_text(text)
    assert ("R055", line_of(text, "penalty Boris -50 R010")) in errors(report), show(report)


def test_engine_game_with_a_revoke_penalty_round_trips_clean():
    """A game where the engine applied ``Game.revoke`` must check clean at every level.

    ``game_transcript`` writes the penalty, ``replay`` and total of an annulled deal; the
    checker must accept what the engine's own writer produces.
    """
    game = Game(load_variant("odessa"), 3, seed=3)
    rng = random.Random(3)
    revoked = False
    while not game.is_over:
        if not revoked and game.phase is Phase.PLAY and game.deal.number >= 3 and game.trick:
            # the player to act plays a card they may not play; the table sees it at once
            illegal = [(c, game.check(Play(c))) for c in game.hand(game.to_act) if c != Card.parse("6S")]
            illegal = [(c, d.code) for c, d in illegal if d is not None and d.code in ("R010", "R011", "R012")]
            if illegal:
                card, code = illegal[0]
                game.revoke(game.to_act, code, Play(card))
                revoked = True
                continue
        game.apply(rng.choice(game.legal_actions()))
    assert revoked
    for level in ("full", "plays", "sheet"):
        text = format_transcript(game_transcript(game, level=level, variant="odessa"))
        report = check_text(text)
        assert report.clean, f"{level}:\n{show(report)}"
        assert report.finished
        assert report.game is not None and report.game.totals == game.totals, level


# ----------------------------------------------------------------------------- score sheets

ODESSA4_SHEET = """\
variant: odessa
players: Anna Boris Vera Gleb
first-dealer: Gleb
level: sheet
"""


def test_sheet_hook_violation_is_r021():
    # n = 1, bids 0, 0, 0: the dealer Gleb may not bid 1 (1 - 0).
    text = ODESSA4_SHEET + doc("""

        deal 1 cards 1 dealer Gleb
        trump D
        Anna bid 0
        Boris bid 0
        Vera bid 0
        Gleb bid 1
        Anna took 0
        Boris took 0
        Vera took 0
        Gleb took 1
        score Anna 5 Boris 5 Vera 5 Gleb 10
        total Anna 5 Boris 5 Vera 5 Gleb 10
        """)
    report = check_text(text)
    assert errors(report) == [("R021", line_of(text, "Gleb bid 1"))], show(report)


def test_sheet_legal_dealer_bid_is_clean():
    # TC-02, n = 1: bids 1, 0, 0 -> the dealer must bid 1 (0 is forbidden); 1 is legal.
    # Anna 1/1 = 10; Boris, Vera 0/0 = 5; Gleb 1/0 = -10.
    text = ODESSA4_SHEET + doc("""

        deal 1 cards 1 dealer Gleb
        trump D
        Anna bid 1
        Boris bid 0
        Vera bid 0
        Gleb bid 1
        Anna took 1
        Boris took 0
        Vera took 0
        Gleb took 0
        score Anna 10 Boris 5 Vera 5 Gleb -10
        total Anna 10 Boris 5 Vera 5 Gleb -10
        """)
    only_notes(check_text(text), "T020")


def test_sheet_tricks_not_adding_up_is_r053():
    # n = 2, tricks 1 + 0 + 0 + 0 = 1.
    text = ODESSA4_SHEET + doc("""

        deal 1 cards 1 dealer Gleb
        trump D
        Anna bid 1
        Boris bid 0
        Vera bid 0
        Gleb bid 1
        Anna took 1
        Boris took 0
        Vera took 0
        Gleb took 0
        score Anna 10 Boris 5 Vera 5 Gleb -10
        total Anna 10 Boris 5 Vera 5 Gleb -10

        deal 2 cards 2 dealer Anna
        trump S
        Boris bid 1
        Vera bid 0
        Gleb bid 0
        Anna bid 0
        Anna took 1
        Boris took 0
        Vera took 0
        Gleb took 0
        score Anna 1 Boris -10 Vera 5 Gleb 5
        total Anna 11 Boris -5 Vera 10 Gleb -5
        """)
    report = check_text(text)
    assert [code for code, _ in errors(report)] == ["R053"], show(report)
    deal2 = line_of(text, "deal 2 cards 2 dealer Anna")
    took_or_score = {n for n in range(deal2, len(text.splitlines()) + 1)
                     if text.splitlines()[n - 1].startswith(("Anna took", "Boris took", "Vera took",
                                                             "Gleb took", "score"))}
    assert errors(report)[0][1] in took_or_score, show(report)


# ----------------------------------------------------------------------------- plays level

UD3_PLAYS = """\
variant: up-and-down
players: Anna Boris Vera
first-dealer: Vera
level: plays
"""

# Up and Down scoring: t + 10 if exact. Deal 1 (dealer Vera, trump clubs): Anna AH wins.
# Anna 1/1 = 11, Boris 0/0 = 10, Vera 0/0 = 10.
UD_DEAL_1 = """\

deal 1 cards 1 dealer Vera
turned 2C
Anna bid 1
Boris bid 0
Vera bid 0
Anna play AH
Boris play 5H
Vera play 3D
score Anna 11 Boris 10 Vera 10
total Anna 11 Boris 10 Vera 10
"""


# Deal 2 played legally (dealer Anna, trump spades): Boris KH, Vera 4H, Anna 7H -> Boris;
# Boris 8C, Vera 9D, Anna 10C -> Anna. Boris 1/1 = 11, Vera 1/0 = 0, Anna 0/1 = 1.
UD_DEAL_2 = """\

deal 2 cards 2 dealer Anna
turned 2S
Boris bid 1
Vera bid 1
Anna bid 0
Boris play KH
Vera play 4H
Anna play 7H
Boris play 8C
Vera play 9D
Anna play 10C
score Anna 1 Boris 11 Vera 0
total Anna 12 Boris 21 Vera 10
"""


def test_plays_level_void_inference_revoke_is_r010_at_the_first_trick():
    # Deal 2 (dealer Anna, trump spades): Boris leads KH; Vera plays 9D although she plays
    # 4H in trick 2, so she held a heart in trick 1: a revoke at "Vera play 9D".
    text = UD3_PLAYS + UD_DEAL_1 + doc("""

        deal 2 cards 2 dealer Anna
        turned 2S
        Boris bid 1
        Vera bid 1
        Anna bid 0
        Boris play KH
        Vera play 9D
        Anna play 7H
        Boris play 8C
        Vera play 4H
        Anna play 10C
        score Anna 1 Boris 11 Vera 0
        total Anna 12 Boris 21 Vera 10
        """)
    report = check_text(text)
    assert errors(report) == [("R010", line_of(text, "Vera play 9D"))], show(report)


def test_plays_level_without_revoke_is_clean():
    text = UD3_PLAYS + UD_DEAL_1 + UD_DEAL_2
    only_notes(check_text(text), "T020")


def test_plays_level_missing_card_in_a_finished_last_deal_is_r045():
    # Deal 2 as in the clean record above, but Vera's second card is not written although
    # the deal's score and total are: the record does not stop inside the deal.
    text = UD3_PLAYS + UD_DEAL_1 + doc("""

        deal 2 cards 2 dealer Anna
        turned 2S
        Boris bid 1
        Vera bid 1
        Anna bid 0
        Boris play KH
        Vera play 4H
        Anna play 7H
        Boris play 8C
        Anna play 10C
        score Anna 1 Boris 11 Vera 0
        total Anna 12 Boris 21 Vera 10
        """)
    report = check_text(text)
    assert "R045" in [code for code, _ in errors(report)], show(report)


def test_unknown_cards_at_plays_level_are_a_note_not_errors():
    # Boris's card in deal 1 is not known: the deal is checked from the tricks taken.
    text = UD3_PLAYS + doc("""

        deal 1 cards 1 dealer Vera
        turned 2C
        Anna bid 1
        Boris bid 0
        Vera bid 0
        Anna play AH
        Boris play ??
        Vera play 3D
        Anna took 1
        Boris took 0
        Vera took 0
        score Anna 11 Boris 10 Vera 10
        total Anna 11 Boris 10 Vera 10
        """) + UD_DEAL_2
    report = check_text(text)
    only_notes(report, "T020", "T021")
    assert report.game is not None and report.game.totals == (12, 21, 10)


def test_unknown_cards_with_a_wrong_score_still_report_the_score():
    text = UD3_PLAYS + doc("""

        deal 1 cards 1 dealer Vera
        turned 2C
        Anna bid 1
        Boris bid 0
        Vera bid 0
        Anna play AH
        Boris play ??
        Vera play 3D
        Anna took 1
        Boris took 0
        Vera took 0
        score Anna 11 Boris 10 Vera 11
        total Anna 11 Boris 10 Vera 11
        """)
    report = check_text(text)
    assert ("R050", line_of(text, "score Anna 11 Boris 10 Vera 11")) in errors(report), show(report)
    assert "T021" in notes(report)


# ----------------------------------------------------------------------------- unfinished games


def test_unfinished_game_is_a_t020_note_only():
    report = check_text(UD3_PLAYS + UD_DEAL_1)
    only_notes(report, "T020")
    assert not report.finished
    assert report.game is not None and report.game.totals == (11, 10, 10)


def test_record_stopping_inside_a_trick_is_only_notes():
    text = UD3_PLAYS.replace("level: plays", "level: full") + doc("""

        deal 1 cards 1 dealer Vera
        hand Anna AH
        hand Boris 5H
        hand Vera 3D
        turned 2C
        Anna bid 1
        Boris bid 0
        Vera bid 0
        Anna play AH
        """)
    report = check_text(text)
    only_notes(report, "T020")
    assert not report.finished


# ----------------------------------------------------------------------------- settlement

# up-and-down-online with a stop-loss of 5: one 1-card deal ends the game.
# Trump H; Anna AS, Boris KS, Vera (void in spades, holds a trump) must trump: 2H wins.
# Scores (full responsibility): Anna 1/0 = -10, Boris 1/0 = -10, Vera 0/1 = over = 1.
# Totals -10, -10, 1 (sum -19); balance 3·S − ΣS: Anna -11, Boris -11, Vera 22 ->
# Anna's -11 <= -5: the game is over. Settlement (pairwise, stake 1): -11, -11, 22.
SETTLED = """\
variant: up-and-down-online
option: end.stop_loss=5
players: Anna Boris Vera
first-dealer: Vera
level: full

deal 1 cards 1 dealer Vera
hand Anna AS
hand Boris KS
hand Vera 2H
trump H
Anna bid 1
Boris bid 1
Vera bid 0
Anna play AS
Boris play KS
Vera play 2H
score Anna -10 Boris -10 Vera 1
total Anna -10 Boris -10 Vera 1
"""


def test_right_settlement_is_clean():
    text = SETTLED + "\nsettlement Anna -11 Boris -11 Vera 22\n"
    report = check_text(text)
    assert report.finished, show(report)
    assert report.clean and not report.diagnostics, show(report)


def test_wrong_settlement_is_r054():
    text = SETTLED + "\nsettlement Anna -11 Boris -10 Vera 22\n"
    report = check_text(text)
    assert errors(report) == [("R054", line_of(text, "settlement Anna -11 Boris -10 Vera 22"))], show(report)


def test_settlement_of_an_unfinished_game_is_r054():
    text = UD3_PLAYS + UD_DEAL_1 + "\nsettlement Anna 11 Boris 10 Vera 10\n"
    report = check_text(text)
    assert ("R054", line_of(text, "settlement Anna 11 Boris 10 Vera 10")) in errors(report), show(report)


def test_settlement_of_an_engine_game():
    game = Game(load_variant("up-and-down-online"), 4, seed=11)
    rng = random.Random(11)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    text = format_transcript(game_transcript(game, level="sheet", variant="up-and-down-online"))
    # (the writer may add the settlement itself: take it off, we write our own)
    text = "\n".join(raw for raw in text.splitlines() if not raw.startswith("settlement")).rstrip("\n") + "\n"
    names = ("p1", "p2", "p3", "p4")
    right = game.settlement()
    good = text + "\nsettlement " + " ".join(f"{p} {a}" for p, a in zip(names, right)) + "\n"
    report = check_text(good)
    assert report.clean and report.finished, show(report)
    wrong = list(right)
    wrong[2] += 1
    bad_line = "settlement " + " ".join(f"{p} {a}" for p, a in zip(names, wrong))
    bad = text + "\n" + bad_line + "\n"
    report = check_text(bad)
    assert errors(report) == [("R054", line_of(bad, bad_line))], show(report)


def test_every_settlement_line_is_checked():
    # A second, wrong settlement line must not slip through unread.
    text = SETTLED + "\nsettlement Anna -11 Boris -11 Vera 22\nsettlement Anna -11 Boris -11 Vera 23\n"
    report = check_text(text)
    line = line_of(text, "settlement Anna -11 Boris -11 Vera 23")
    assert any(d.line == line for d in report.errors), show(report)


# ----------------------------------------------------------------------------- the header


def test_unknown_variant_is_not_readable():
    text = doc("""
        variant: odesa
        players: Anna Boris Vera
        first-dealer: Anna
        level: sheet

        deal 1 cards 1 dealer Anna
        trump D
        Boris bid 1
        Vera bid 0
        Anna bid 1
        """)
    report = check_text(text)
    assert not report.readable
    assert not report.clean
    assert "T010" in [d.code for d in report.diagnostics], show(report)
    t010 = next(d for d in report.diagnostics if d.code == "T010")
    assert t010.line == 1


# Odessa sheet, n = 1, dealer Anna: Boris 0, Vera 0, Anna 0 (the hook forbids her 1 - 0 = 1).
# Boris takes the trick: 0/1 = over = 1; Vera and Anna pass and make it: the pass score.
PASS_SHEET = """\

deal 1 cards 1 dealer Anna
trump D
Boris bid 0
Vera bid 0
Anna bid 0
Anna took 0
Boris took 1
Vera took 0
score Anna {p} Boris 1 Vera {p}
total Anna {p} Boris 1 Vera {p}
"""

ODESSA3_SHEET = """\
variant: odessa
{option}players: Anna Boris Vera
first-dealer: Anna
level: sheet
"""


@pytest.mark.parametrize(
    ("option", "written", "clean"),
    [
        ("", 5, True),  # a pass made scores 5 ...
        ("", 0, False),
        ("option: scoring.params.pass=0\n", 0, True),  # ... and 0 with the hard-pass option
        ("option: scoring.params.pass=0\n", 5, False),
    ],
)
def test_option_header_changes_the_expected_score(option, written, clean):
    text = ODESSA3_SHEET.format(option=option) + PASS_SHEET.format(p=written)
    report = check_text(text)
    if clean:
        only_notes(report, "T020")
    else:
        score = line_of(text, f"score Anna {written} Boris 1 Vera {written}")
        assert ("R050", score) in errors(report), show(report)
        assert {code for code, _ in errors(report)} <= {"R050", "R051"}, show(report)


@pytest.mark.parametrize("option", ["scoring.nosuch=3", "play.must_trump=maybe"])
def test_option_that_cannot_be_applied_is_t011(option):
    text = ODESSA3_SHEET.format(option=f"option: {option}\n") + PASS_SHEET.format(p=5)
    report = check_text(text)
    assert not report.readable and not report.clean
    assert [(d.code, d.line) for d in report.diagnostics] == [("T011", 2)], show(report)


def test_event_lines_before_the_first_deal_are_not_ignored():
    # "The body is a sequence of deal blocks. Each starts with a deal line."
    text = ODESSA3 + "\nAnna bid 3\nscore Anna 5\n" + ODESSA_DEALS_1_2
    report = check_text(text)
    assert not report.clean, show(report)


# ----------------------------------------------------------------------------- going on after errors


def test_checking_goes_on_after_errors():
    # Odessa sheet, 3 players, dealer Anna first.
    # deal 1 (n=1): Boris 1, Vera 0 -> the hook forbids Anna 0: R021 (deal abandoned,
    #   the written score and total are kept: 5, 10, 5).
    # deal 2 (n=2): Vera 1, Anna 0, Boris 0 (forbidden 1); tricks 1 + 0 + 0 = 1: R053 (kept:
    #   6, 15, -5).
    # deal 3 (n=3): Anna 1, Boris 1, Vera 2 (forbidden 1); tricks 1, 1, 1: Anna 10, Boris 10,
    #   Vera 2/1 = -5, written -10: R050. Totals on the engine's scores: 16, 25, -10.
    # deal 4 (n=4): Boris 2, Vera 1, Anna 0 (forbidden 1); tricks Anna 1, Boris 2, Vera 1:
    #   Anna over = 1, Boris 2/2 = 15, Vera 1/1 = 10. Totals 17, 40, 0; written Boris 41: R051.
    text = ODESSA3_SHEET.format(option="") + doc("""

        deal 1 cards 1 dealer Anna
        trump D
        Boris bid 1
        Vera bid 0
        Anna bid 0
        Anna took 0
        Boris took 1
        Vera took 0
        score Anna 5 Boris 10 Vera 5
        total Anna 5 Boris 10 Vera 5

        deal 2 cards 2 dealer Boris
        trump S
        Vera bid 1
        Anna bid 0
        Boris bid 0
        Anna took 1
        Boris took 0
        Vera took 0
        score Anna 1 Boris 5 Vera -10
        total Anna 6 Boris 15 Vera -5

        deal 3 cards 3 dealer Vera
        trump H
        Anna bid 1
        Boris bid 1
        Vera bid 2
        Anna took 1
        Boris took 1
        Vera took 1
        score Anna 10 Boris 10 Vera -10
        total Anna 16 Boris 25 Vera -10

        deal 4 cards 4 dealer Anna
        trump C
        Boris bid 2
        Vera bid 1
        Anna bid 0
        Anna took 1
        Boris took 2
        Vera took 1
        score Anna 1 Boris 15 Vera 10
        total Anna 17 Boris 41 Vera 0
        """)
    report = check_text(text)
    got = errors(report)
    assert [code for code, _ in got] == ["R021", "R053", "R050", "R051"], show(report)
    assert got[0] == ("R021", line_of(text, "Anna bid 0"))
    assert line_of(text, "deal 2 cards 2 dealer Boris") < got[1][1] < line_of(text, "deal 3 cards 3 dealer Vera")
    assert got[2] == ("R050", line_of(text, "score Anna 10 Boris 10 Vera -10"))
    assert got[3] == ("R051", line_of(text, "total Anna 17 Boris 41 Vera 0"))
    assert notes(report) == ["T020"], show(report)


def test_two_broken_full_deals_and_a_good_one():
    # deal 1 of TC-style Odessa with a card Boris does not hold (R013), deal 2 with a wrong
    # leader of trick 2 (Vera won trick 1 ... see below), deal 3 clean; every error is found.
    text = ODESSA3 + doc("""

        deal 1 cards 1 dealer Anna
        hand Anna JD
        hand Boris KD
        hand Vera QD
        turned JH
        Boris bid 1
        Vera bid 0
        Anna bid 1
        Boris play AD
        Vera play QD
        Anna play JD
        score Anna -10 Boris 10 Vera 5
        total Anna -10 Boris 10 Vera 5

        deal 2 cards 2 dealer Boris
        hand Anna 10S 10C
        hand Boris 9H QC
        hand Vera KH 10D
        turned 8C
        Vera bid 2
        Anna bid 2
        Boris bid 1
        Vera play 10D
        Anna play 10C
        Boris play QC
        Vera play KH
        Anna play 10S
        Boris play 9H
        score Anna -20 Boris 10 Vera -5
        total Anna -30 Boris 20 Vera 0
        """) + TC04_DEAL.replace("Boris play QD", "Boris play 9S") + doc("""
        Vera play JS
        Anna play KD
        Boris play QD
        Vera play 10D
        Anna play 7C
        Boris play 8C
        Vera play AC
        score Anna 15 Boris 5 Vera 1
        total Anna -15 Boris 25 Vera 1
        """)
    # deal 3: AS 9S JS -> Anna; KD QD 10D -> Anna; 7C 8C AC -> Vera. Anna 2/2 = 15,
    # Boris 0/0 = 5, Vera 0/1 = 1: totals -15, 25, 1.
    report = check_text(text)
    got = errors(report)
    assert got == [("R013", line_of(text, "Boris play AD")), ("R003", line_of(text, "Vera play KH"))], show(report)
    assert report.game is not None and report.game.totals == (-15, 25, 1)


def test_an_option_line_may_carry_a_list_or_a_mapping():
    """docs/transcript-format.md: an option's value is read as YAML (a flow list or mapping too)."""
    from updown_dsl import Game, load_variant
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    game = Game(load_variant("odessa"), 4, seed=2)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    text = format_transcript(game_transcript(game, level="full"))
    with_list = text.replace("\nplayers:", "\noption: jokers.lead=[demand, high]\nplayers:", 1)
    report = check_text(with_list)
    assert report.readable, [str(d) for d in report.diagnostics]
    assert report.game is not None and report.game.variant.wild[0].lead == ("demand", "high")
    tagged = text.replace("\nplayers:", "\noption: jokers.lead=[demand, !!python/name:os.system]\nplayers:", 1)
    assert [d.code for d in check_text(tagged).diagnostics] == ["T011"]


def test_a_wrong_hand_size_is_one_r041_naming_the_player():
    bad = (ODESSA3 + ODESSA_DEALS_1_2).replace("hand Boris 9H QC", "hand Boris 9H QC 7S", 1)
    errors = check_text(bad).errors
    assert [(d.code, d.line) for d in errors] == [("R041", 22)]
    assert errors[0].message == "Boris was dealt 3 cards; deal 2 has 2 each"


def test_a_sheet_cannot_write_a_trump_the_rules_do_not_give():
    from updown_dsl import Game, load_variant
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    game = Game(load_variant("russian"), 4, seed=5)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    lines = format_transcript(game_transcript(game, level="sheet")).split("\n")
    deal = next(d for d in game.deals if d.kind == "no-trump").number
    start = lines.index(next(x for x in lines if x.startswith(f"deal {deal} ")))
    at = next(i for i in range(start, len(lines)) if lines[i].startswith("trump"))
    assert lines[at] == "trump none"
    lines[at] = "trump H"
    errors = check_text("\n".join(lines)).errors
    assert [(d.code, d.line) for d in errors] == [("R046", at + 1)]
    assert "without trump" in errors[0].message


def test_one_wrong_score_carried_into_the_totals_and_settlement_is_one_diagnostic():
    """docs/examples/README.md promises one diagnostic per mistake: a person who writes a
    wrong score adds it into every total after it and settles on those totals."""
    from updown_dsl import Game, load_variant
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    game = Game(load_variant("up-and-down-online"), 4, seed=8)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    lines = format_transcript(game_transcript(game, level="sheet")).split("\n")
    at = next(i for i, x in enumerate(lines) if x.startswith("score "))

    def bump(i: int, k: int = 2, by: int = 7) -> None:
        words = lines[i].split()
        words[k] = str(int(words[k]) + by)
        lines[i] = " ".join(words)

    bump(at)
    for i in range(at + 1, len(lines)):
        if lines[i].startswith("total "):
            bump(i)
    from updown_dsl.engine.scoring import settle

    totals = list(game.totals)
    totals[0] += 7
    settled = settle(game.variant, totals)
    i = next(i for i, x in enumerate(lines) if x.startswith("settlement "))
    names = lines[i].split()[1::2]
    lines[i] = "settlement " + " ".join(f"{n} {a}" for n, a in zip(names, settled))
    report = check_text("\n".join(lines))
    assert [(d.code, d.line) for d in report.errors] == [("R050", at + 1)], [str(d) for d in report.errors]
    # a total that does not add up is still its own mistake, once, however far it is carried
    for j in range(at + 1, len(lines)):
        if lines[j].startswith("total "):
            bump(j, by=1)
    totals[0] += 1
    lines[i] = "settlement " + " ".join(f"{n} {a}" for n, a in zip(names, settle(game.variant, totals)))
    errors = check_text("\n".join(lines)).errors
    assert [(d.code, d.line) for d in errors] == [("R050", at + 1), ("R051", at + 2)]


def test_the_dealers_last_card_shown_for_trump_is_checked_at_the_full_level():
    """Up and Down, 4 players, 13 cards: every card is dealt and the dealer's last one is trump."""
    from updown_dsl import Game, load_variant
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    game = Game(load_variant("up-and-down"), 4, seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    lines = format_transcript(game_transcript(game, level="full")).split("\n")
    start = lines.index(next(x for x in lines if x.startswith("deal 13 ")))
    dealer_hand = start + 4
    turned = start + 5
    assert lines[dealer_hand].startswith("hand p4 ") and lines[turned].startswith("turned ")
    shown = lines[turned].split()[1]
    # another player's card named as the one shown: named, at its line
    wrong = list(lines)
    wrong[turned] = "turned " + lines[start + 3].split()[2]
    errors = check_text("\n".join(wrong)).errors
    assert [(d.code, d.line) for d in errors] == [("R046", turned + 1)]
    # the dealer's hand written sorted, the shown card first: the turned line says which was last
    cards = lines[dealer_hand].split()[2:]
    cards.remove(shown)
    sorted_hand = list(lines)
    sorted_hand[dealer_hand] = "hand p4 " + " ".join([shown, *cards])
    report = check_text("\n".join(sorted_hand))
    assert report.clean, [str(d) for d in report.diagnostics]


def test_a_revoke_gives_its_evidence():
    from pathlib import Path

    from updown_dsl.records.checker import check_file

    golden = Path(__file__).resolve().parent / "golden"
    (full,) = check_file(golden / "up-and-down" / "revoke-refused.log").errors
    assert full.code == "R010" and full.message.endswith("; the hand holds AD")
    (plays,) = check_file(golden / "odessa" / "revoke-no-penalty.log").errors
    assert plays.code == "R010" and plays.message.endswith("; 10D is played later in the deal (line 34)")


# ------------------------------------------------------------------ a card the hand does not hold
GOLDEN_OH_HELL = Path(__file__).resolve().parent / "golden" / "oh-hell"


def test_a_card_not_in_the_hand_is_reported_with_where_it_is_and_the_deal_goes_on() -> None:
    from updown_dsl import i18n

    text = (GOLDEN_OH_HELL / "card-played-twice-full.log").read_text(encoding="utf-8")
    try:
        i18n.set_language("en")
        report = check_text(text, "g.log")
        assert [d.format() for d in report.diagnostics] == [
            "g.log:67:11: error[R013] Anna (deal 3, trick 3): AS is not in Anna's hand; it was played at line 60",
            "g.log:69:28: error[R051] Vera's total after deal 3 is 10, not 15",
        ]
        # the card in another player's hand: who holds it
        other = text.replace("Anna play AC", "Anna play 10C", 1)
        assert [d.message for d in check_text(other, "g.log").errors][0] == \
            "Anna (deal 3, trick 1): 10C is not in Anna's hand; Boris holds it"
        i18n.set_language("ru")
        assert check_text(text, "g.log").errors[0].message == \
            "Anna (сдача 3, взятка 3): карты Т♠ нет на руке у игрока Anna; она уже сыграна (строка 60)"
    finally:
        i18n.set_language(None)
    # the deal was played to its end as written (not left at the mistake): Anna took 1, as written
    assert report.game is not None
    deal3 = report.game.results[2]
    assert (deal3.event, deal3.deal.number, deal3.seats[0].taken) == ("deal", 3, 1)


def test_a_card_not_in_the_hand_after_an_earlier_mistake_is_still_reported() -> None:
    text = (GOLDEN_OH_HELL / "hook-and-card-played-twice-full.log").read_text(encoding="utf-8")
    assert [(d.line, d.code) for d in check_text(text, "g.log").diagnostics] == [(55, "R021"), (67, "R013")]


def test_play_as_written_takes_a_card_the_hand_does_not_hold_only_in_place_of_one_it_holds() -> None:
    game = Game(load_variant("oh-hell"), 4, seed=3)
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    seat = game.to_act
    held = game.hand(seat)
    other = next(c for c in game.hand((seat + 1) % 4))
    assert not game.play_as_written(Play(other))  # nothing said of the card it stands for
    assert not game.play_as_written(Play(other), instead=other)  # not a card of this hand
    assert game.play_as_written(Play(other), instead=held[-1])
    assert game.hand(seat) == held[:-1] and game.trick[-1].play.card == other
    assert isinstance(held[-1], Card)


def test_a_wrong_leader_is_reported_and_the_deal_goes_on_with_the_lead_as_written() -> None:
    text = (GOLDEN_OH_HELL / "wrong-leader-and-wrong-total-full.log").read_text(encoding="utf-8")
    report = check_text(text, "g.log")
    assert [d.format() for d in report.diagnostics] == [
        "g.log:64:1: error[R003] Vera leads trick 3 of deal 3, but Boris won trick 2 and leads",
        "g.log:69:12: error[R051] Anna's total after deal 3 is 2, not 3",
    ]
    assert report.game is not None and report.game.results[2].event == "deal"  # played to its end


def test_lead_as_written_only_between_two_tricks() -> None:
    game = Game(load_variant("oh-hell"), 4, seed=3)
    while game.phase is not Phase.PLAY or game.deal.cards < 2:
        game.apply(game.legal_actions()[0])
    assert not game.lead_as_written(0)  # before the first trick: the rules (or set_first_leader) say
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    other = (game.to_act + 1) % 4
    assert game.lead_as_written(other) and game.to_act == other
    game.apply(game.legal_actions()[0])
    assert not game.lead_as_written(game.to_act)  # inside a trick


def test_a_trump_card_shown_that_the_deal_contradicts_is_the_mistake_reported() -> None:
    # Deal 13 of 13 cards (the whole pack dealt): the dealer's last card, 6C, shows trump; the
    # record writes 7S, another card of the dealer's. With spades as trump the cards break
    # the rules more than once (and the record cannot be followed); with clubs none does: the
    # shown card is the one mistake.
    golden = Path(__file__).resolve().parent / "golden" / "up-and-down"
    report = check_text((golden / "turned-not-last-dealt-full.log").read_text(encoding="utf-8"), "g.log")
    assert [d.format() for d in report.diagnostics] == [
        "g.log:481:1: error[R046] the card shown for trump, 7S, does not fit deal 13: with spades (♠) as trump cards "
        "of the deal break the rules, with clubs (♣) none does (hint: the dealer's last card is the trump shown: "
        "a card of clubs (♣)?)"]
    assert report.game is not None and report.game.results[12].trump is not None
    assert report.game.results[12].trump.name == "CLUBS"
