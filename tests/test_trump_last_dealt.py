"""``trump: {rule: last_dealt}``: the dealer's last card is trump even while cards are set aside."""

from updown_dsl import Game
import pytest

from updown_dsl.lang.loader import VariantError, loads_variant
from updown_dsl.lang.rulebook import rule_book

TEXT = "name: last-dealt\nextends: up-and-down\ntrump:\n  rule: last_dealt\n"


def test_dealer_last_card_is_trump_with_cards_left() -> None:
    game = Game(loads_variant(TEXT), 4)
    dealer = game.dealer
    last = game.dealt_hands[dealer][-1]
    assert game.deal.cards * 4 < 36  # cards are left over in this deal
    assert game.turned == last
    assert game.trump == last.suit
    assert last in game.hand(dealer)


def test_bad_rule_is_located() -> None:
    with pytest.raises(VariantError) as err:
        loads_variant("name: x\nextends: up-and-down\ntrump:\n  rule: last_delt\n", "x.yaml")
    d = err.value.diagnostics[0]
    assert (d.code, d.line, d.col, d.hint) == ("V005", 4, 9, "did you mean 'last_dealt'?")


def test_rule_book_says_so() -> None:
    assert "even when cards are left over" in str(rule_book(loads_variant(TEXT), 4))
