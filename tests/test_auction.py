"""An auction for trump (Estimation): the calls, the declarer, the estimates after it, the
dash limit and ``made_count``, in the engine, the records and the play prompt.

Every expected number is worked out by hand in the comments.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

from updown_dsl import Bid, Call, Game, Phase, Suit, load_variant, loads_variant, seat_score
from updown_dsl.lang.loader import VariantError
from updown_dsl.players.bots import HeuristicBot
from updown_dsl.players.replies import interpret, prompt_text
from updown_dsl.records.checker import check_text
from updown_dsl.records.jsonform import transcript_from_json, transcript_to_json
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript, parse_transcript

from gamekit import code, hands

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
EST = load_variant("estimation")

# Four 13-card hands: Anna every spade, Boris every heart, Vera every diamond, Gleb every club.
SUITS = hands(*(" ".join(r + s for r in "A K Q J 10 9 8 7 6 5 4 3 2".split()) for s in "SHDC"))


def dealt(variant=EST, players: int = 4) -> Game:
    game = Game(variant, players, seed=1, auto_deal=False)
    game.deal_cards(SUITS)
    return game


def calls(game: Game, *made: Call) -> None:
    for c in made:
        game.apply(c)


def test_the_calls_of_a_13_card_deal_are_a_dash_and_4_to_13_tricks_in_five_trumps():
    game = dealt()
    assert game.phase is Phase.AUCTION and game.to_act == 0  # eldest calls first
    legal = game.legal_actions()
    assert legal[0] == Call(0)
    assert len(legal) == 1 + 10 * 5  # the dash, then 4..13 tricks in none S H D C
    assert legal[1:6] == (Call(4), Call(4, S), Call(4, H), Call(4, D), Call(4, C))
    assert code(game, Call(3, S)) == "R024" and code(game, Call(14, S)) == "R024"
    assert code(game, Bid(3)) == "R002"  # no bid before the auction is over


def test_the_most_tricks_win_then_the_higher_trump_then_the_first_call():
    game = dealt()
    calls(game, Call(5, H), Call(5, S), Call(4), Call(5, S))  # Vera: 4 tricks, no trump
    # 5 S (Boris) beats 5 H (Anna); Gleb's equal 5 S came later: Boris wins.
    assert game.declarer == 1 and game.trump is S
    assert game.bids == (None, 5, None, None) and game.phase is Phase.BID
    game2 = dealt()
    calls(game2, Call(6, C), Call(5), Call(5, S), Call(4))  # 6 tricks beat any 5
    assert game2.declarer == 0 and game2.trump is C
    game3 = dealt()
    calls(game3, Call(5, S), Call(5), Call(4, H), Call(4))  # no trump ranks above spades
    assert game3.declarer == 1 and game3.trump is None


def test_the_others_bid_from_the_declarers_left_at_most_the_winning_call():
    game = dealt()
    calls(game, Call(4, H), Call(0), Call(6, D), Call(4, S))  # Vera declares 6 D, Boris dashes
    assert game.bids == (None, 0, 6, None)
    assert game.to_act == 3  # Gleb, on Vera's left; then Anna; Boris dashed
    assert game.legal_actions()[-1] == Bid(6)
    assert code(game, Bid(7)) == "R020"
    game.apply(Bid(2))
    assert game.to_act == 0
    game.apply(Bid(3))
    assert game.phase is Phase.PLAY and game.bids == (3, 0, 6, 2)
    assert game.to_act == 0  # eldest leads, whoever declared


def test_two_dashes_are_the_most_and_somebody_must_name_trump():
    game = dealt()
    calls(game, Call(0), Call(0))
    assert Call(0) not in game.legal_actions() and code(game, Call(0)) == "R023"
    calls(game, Call(4, D), Call(4, C))
    # Vera declared 4 D (the same tricks, and diamonds rank above clubs); Gleb may not bid 0.
    assert game.declarer == 2 and game.to_act == 3
    assert Bid(0) not in game.legal_actions() and code(game, Bid(0)) == "R023"
    unlimited = loads_variant("name: many\nextends: estimation\nbidding: {dash_limit: null}\n", path="many.yaml")
    game = dealt(unlimited)
    calls(game, Call(0), Call(0), Call(0))
    assert Call(0) not in game.legal_actions()  # the last caller after three dashes
    assert code(game, Call(0)) == "R023"


def test_a_dash_limit_applies_to_ordinary_deals_too():
    v = loads_variant("name: dashes\nextends: oh-hell\nschedule: [{cards: 3}]\nbidding: {dash_limit: 1}\n",
                      path="dashes.yaml")
    game = Game(v, 4, seed=2)
    game.apply(Bid(0))
    assert Bid(0) not in game.legal_actions() and code(game, Bid(0)) == "R023"
    game.apply(Bid(1))
    game.apply(Bid(1))
    # The hook forbids 1 (0 + 1 + 1 + 1 = 3 cards) and the limit forbids 0: 2 or 3 are left.
    assert game.legal_actions() == (Bid(2), Bid(3))


def test_nobody_scores_a_hand_nobody_makes():
    # Exact: + the bid; otherwise minus the difference; made_count 0: nothing for anyone.
    kind = EST.kinds["auction"]
    env = {"cards": 13}
    assert [seat_score(EST, kind, env, bid=b, taken=t, made_count=m)
            for b, t, m in [(5, 5, 1), (5, 3, 1), (5, 3, 0), (0, 0, 3), (2, 6, 2)]] == [5, -2, 0, 0, -4]


def test_the_engine_counts_who_made_it():
    game = dealt()
    # Anna holds every spade: her 13 S call takes all 13 tricks; the others bid 0 and 1.
    calls(game, Call(13, S), Call(0), Call(4, H), Call(4, D))
    game.apply(Bid(1))  # Vera
    game.apply(Bid(0))  # Gleb: the second zero
    while game.deal.number == 1:
        game.apply(game.legal_actions()[0])
    r = game.results[0]
    assert [s.taken for s in r.seats] == [13, 0, 0, 0]
    # Anna, Boris and Gleb made it (made_count 3): 13, 0, 0; Vera missed by 1: -1.
    assert [s.points for s in r.seats] == [13, 0, -1, 0]
    assert r.calls == (Call(13, S), Call(0), Call(4, H), Call(4, D))


def test_a_hand_nobody_makes_scores_nothing_in_play():
    game = dealt()
    calls(game, Call(4, S), Call(4, H), Call(4, D), Call(4, C))  # Anna declares 4 S
    for b in (2, 2, 2):  # Boris, Vera, Gleb
        game.apply(Bid(b))
    while game.deal.number == 1:
        game.apply(game.legal_actions()[0])
    r = game.results[0]
    assert [s.taken for s in r.seats] == [13, 0, 0, 0]  # spades are trump and Anna has them all
    assert [s.points for s in r.seats] == [0, 0, 0, 0]


def test_a_clone_keeps_the_calls():
    game = dealt()
    calls(game, Call(5, S), Call(0))
    copy = game.clone()
    copy.apply(Call(6, H))
    assert game.calls == (Call(5, S), Call(0), None, None)
    assert copy.calls == (Call(5, S), Call(0), Call(6, H), None)


@pytest.mark.parametrize("text, code_, where", [
    ("""
     name: bad
     extends: oh-hell
     kinds: {auction: {bidding: auction, trump: {rule: none}}}
     schedule: [{cards: 3, kind: auction}]
     """, "V006", "no `bidding.auction`"),
    ("""
     name: bad
     extends: estimation
     kinds: {auction: {bidding: auction, trump: {rule: turned}}}
     """, "V012", "also a trump rule"),
])
def test_an_auction_needs_its_section_and_no_trump_rule_of_its_own(text, code_, where):
    with pytest.raises(VariantError) as err:
        loads_variant(textwrap.dedent(text), path="bad.yaml")
    found = [d for d in err.value.diagnostics if d.code == code_]
    assert found and where in found[0].message


def test_a_formula_dividing_by_made_count_fails_at_load():
    with pytest.raises(VariantError) as err:
        loads_variant("name: bad\nextends: estimation\nscoring: {deal: 'bid // made_count'}\n", path="bad.yaml")
    assert [d.code for d in err.value.diagnostics] == ["F005"]
    # made_count cannot be 0 for a player who made the bid: a guarded formula loads.
    loads_variant("name: ok\nextends: estimation\nscoring: {deal: 'made ? bid // made_count : 0'}\n",
                  path="ok.yaml")


def bot_game(seed: int) -> Game:
    game = Game(EST, 4, seed=seed)
    bots = [HeuristicBot(random.Random(seed * 4 + i)) for i in range(4)]
    while not game.is_over:
        game.apply(bots[game.to_act].act(game.view(game.to_act)))
    return game


@pytest.mark.slow
@pytest.mark.parametrize("level", ["full", "plays", "sheet"])
def test_a_bot_game_is_written_with_its_calls_and_checks_clean(level):
    game = bot_game(3)
    text = format_transcript(game_transcript(game, level=level, variant="estimation"))
    blocks = text.split("\ndeal ")[1:]
    assert len(blocks) == 18 and all(" call " in b for b in blocks[:13]) and not any(" call " in b for b in blocks[13:])
    assert not any("\ntrump" in b for b in blocks[:13])  # the calls name the trump
    report = check_text(text)
    assert report.finished and report.diagnostics == ()
    t, _ = parse_transcript(text)
    again, problems = transcript_from_json(json.loads(json.dumps(transcript_to_json(t))))
    assert not problems and format_transcript(again) == text
    compact = format_transcript(game_transcript(game, level="sheet", variant="estimation", compact=True))
    rows = compact.split("\ndeal ")[1:]
    assert not any("|" in b for b in rows[:13]) and all("|" in b for b in rows[13:])  # no cell for calls
    assert check_text(compact).diagnostics == ()


@pytest.mark.slow
def test_calls_are_read_as_written_and_refused_with_their_rule():
    game = bot_game(5)
    text = format_transcript(game_transcript(game, level="full", variant="estimation"))
    first = next(line for line in text.splitlines() if " call " in line and "dash" not in line)
    name = first.split()[0]
    report = check_text(text.replace(first, f"{name} call 3 S", 1))
    assert [d.code for d in report.diagnostics] == ["R024"]
    bad = check_text(text.replace(first, f"{name} call 5 X", 1))
    assert bad.diagnostics[0].code == "T003"


def test_the_prompt_reads_calls():
    game = dealt()
    assert prompt_text(game) == "your call (4-13 with a trump (none S H D C), or dash)"
    assert interpret(game, "5 S").action == Call(5, S)
    assert interpret(game, "call 6 nt").action == Call(6)
    assert interpret(game, "dash").action == Call(0)
    refused = interpret(game, "3 H")
    assert refused.kind == "invalid" and refused.code == "R024"
    assert interpret(game, "AS").kind == "invalid"


def test_a_score_sheet_line_the_bidding_has_no_turn_for_is_refused():
    sheet = (Path(__file__).parent / "golden" / "estimation" / "clean-sheet.log").read_text(encoding="utf-8")
    # Deal 1: Vera's call of 6 C won the auction, so that call is her bid.
    report = check_text(sheet.replace("Gleb bid 3\n", "Gleb bid 3\nVera bid 6\n", 1))
    assert [(d.code, d.line) for d in report.diagnostics] == [("R002", 14)]
    assert "Vera's call is the bid" in report.diagnostics[0].message
    # Deal 14, a fast hand, has no auction.
    at = sheet.index("\n", sheet.index("deal 14 ")) + 1
    report = check_text(sheet[:at] + "Anna call 5 S\n" + sheet[at:])
    assert [d.code for d in report.diagnostics] == ["R002"]
    assert "which has no auction" in report.diagnostics[0].message


def test_a_bid_on_a_score_sheet_deal_without_bidding_is_refused():
    game = Game(load_variant("russian"), 4, seed=2)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    sheet = format_transcript(game_transcript(game, level="sheet", variant="russian"))
    at = sheet.index("\n", sheet.index("deal 17 ")) + 1  # the minimum deal: nobody bids
    report = check_text(sheet[:at] + "p1 bid 2\n" + sheet[at:])
    assert [d.code for d in report.diagnostics] == ["R002"]
    assert "a deal without bidding" in report.diagnostics[0].message
