"""The rule book (`updown variant explain`): written from the model, every rule in it, the
points in its tables worked out by the variant's own formulas, a house rule's changes, and
docs/variants.md's generated blocks kept fresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from updown_dsl import i18n
from updown_dsl.lang import bookdocs, docgen
from updown_dsl.lang.bookmodel import Bullets, Table
from updown_dsl.lang.bookrender import render, to_text
from updown_dsl.lang.loader import bundled_names, load_variant, loads_variant
from updown_dsl.lang.rulebook import base_variant, rule_book

from clikit import make_runner

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english():
    i18n.set_language("en")
    yield
    i18n.set_language(None)


def _table(book, key, index=0):
    section = next(s for s in book.sections if s.key == key)
    return [b for b in section.blocks if isinstance(b, Table)][index]


def test_odessa_points_are_the_formulas_own() -> None:
    table = _table(rule_book(load_variant("odessa"), 4), "scoring")
    assert table.header == ("bid / taken", "0/0", "0/1", "1/1", "2/2", "3/3", "3/1", "3/0", "2/3", "6/6")
    assert table.rows == (
        ("normal", "5", "1", "10", "15", "20", "−10", "−30", "3", "35"),
        ("blind ×2", "10", "2", "20", "30", "40", "−20", "−60", "6", "70"),
    )


def test_russian_kinds_without_bids_get_a_table_of_tricks() -> None:
    book = rule_book(load_variant("russian"), 4)
    assert _table(book, "scoring").rows[0][:3] == ("normal, no-trump, hidden", "5", "1")
    assert _table(book, "scoring", 1).rows == (("minimum", "0", "−10", "−20", "−30"),
                                               ("maximum", "0", "10", "20", "30"))


def test_georgian_khishti_rows_follow_the_set() -> None:
    rows = _table(rule_book(load_variant("georgian-khishti"), 4), "scoring").rows
    assert [(r[0], r[7], r[-1]) for r in rows] == [("normal, set 1, 3", "−200", ""),
                                                    ("normal, set 2, 4", "−500", "900")]


def test_schedule_table_is_for_the_player_count() -> None:
    book = rule_book(load_variant("odessa"), 6)
    rows = _table(book, "schedule").rows
    assert len(rows) == 17 and rows[-1] == ("17", "6", "blind ×2")
    assert "1 2 3 4 5 6 6 6 6 6 6 5 4 3 2 1 6B" in to_text(book)


def test_house_rule_book_says_what_it_changes() -> None:
    house = load_variant(str(ROOT / "docs/house-rules/odessa-house.yaml"))
    base = base_variant(house)
    assert base is not None and base.name == "odessa"
    book = rule_book(house, 4, base)
    assert book.sections[0].key == "changes"
    (changes,) = book.sections[0].blocks
    assert isinstance(changes, Bullets)
    got = {it.text: [c.text for c in it.items] for it in changes.items}
    assert got == {
        "Jokers": ["A demanding lead (`demand`, `highest`) is allowed only on the first trick of a deal. [R015]",
                   "no longer: A demanding lead may open any trick."],
        "Scoring": ["if the bid is made", "normal, 0/0: 0 (was 5)", "blind ×2, 0/0: 0 (was 10)"],
    }
    scoring = changes.items[1].items[0].items
    assert [c.text for c in scoring] == ["if the bid is 0 (a pass): `pass` (0) points",
                                         "no longer: if the bid is 0 (a pass): `pass` (5) points"]


def test_a_variant_that_extends_nothing_has_no_base() -> None:
    assert base_variant(load_variant("odessa")) is None


# Every key a rule can be changed by, and a change of it. The book of the changed variant
# must differ from the book of the variant it extends: each rule the engine and the checker
# enforce has its sentence. A key added to the schema fails the test until it is here (or
# among the keys that are no rule of play).
CHANGES: dict[str, tuple[str, str]] = {
    "players": ("odessa", "players: {min: 3, max: 5, default: 4}"),
    "deck.pack": ("up-and-down", "deck: {pack: 36}"),
    "deck.jokers": ("up-and-down", "deck: {jokers: 1}\njokers: {lead: [high]}"),
    "deck.remove": ("up-and-down", "deck: {remove: [2C]}"),
    "deck.designated_jokers": ("up-and-down", "deck: {designated_jokers: [2C]}\njokers: {lead: [high]}"),
    "deck.per_player": ("up-and-down", "deck: {per_player: 8}"),
    "trump.cycle_from": ("nomination-whist", "trump: {rule: cycle, cycle: [S, H, C, D, none], cycle_from: 3}"),
    "trump.no_trump_on": ("oh-hell", "trump: {rule: turned, no_trump_on: [J, Q, K]}"),
    "trump.super_trump": ("oh-hell", "trump: {rule: turned, super_trump: same_colour}"),
    "dealing.void_redeal": ("estimation", "dealing: {void_redeal: true}"),
    "deck.packs": ("oh-hell", "players: {min: 6, max: 10, default: 8}\ndeck: {packs: 2}"),
    "deck.identical": ("oh-hell-two-packs", "deck: {identical: later_wins}"),
    "special_card.also": ("clag", "special_card: {card: 2S, also: [2H], kinds: [twos-wild], impersonate: true, "
                                  "copy_wins: true, lead: [], follow: []}"),
    "special_card.kinds": ("clag", "special_card: {card: 2S, also: [2H, 2D, 2C], kinds: [twos-wild, blind], "
                                   "impersonate: true, copy_wins: true, lead: [], follow: []}"),
    "special_card.copy_wins": ("clag", "special_card: {card: 2S, also: [2H, 2D, 2C], kinds: [twos-wild], "
                                       "impersonate: true, copy_wins: false, lead: [], follow: []}"),
    "schedule": ("odessa", "schedule: [{cards: 3, times: 2}]"),
    "kinds.<name>.bidding": ("odessa", "kinds: {blind: {bidding: sealed}}"),
    "kinds.<name>.trump": ("odessa", "kinds: {blind: {trump: {rule: none}}}"),
    "kinds.<name>.multiplier": ("odessa", "kinds: {blind: {multiplier: 3}}"),
    "kinds.<name>.score": ("odessa", "kinds: {blind: {score: 'taken'}}"),
    "kinds.<name>.hook": ("odessa", "kinds: {blind: {hook: false}}"),
    "trump.rule": ("odessa", "trump: {rule: random}"),
    "trump.suit": ("up-and-down", "trump: {rule: fixed, suit: H}"),
    "trump.cycle": ("nomination-whist", "trump: {cycle: [H, S]}"),
    "trump.cycle_by": ("nomination-whist", "trump: {cycle_by: kind}"),
    "trump.when_exhausted": ("odessa", "trump: {when_exhausted: no_trump}"),
    "trump.random_no_trump": ("up-and-down-online", "trump: {random_no_trump: true}"),
    "trump.chooser": ("georgian", "trump: {chooser: dealer}"),
    "trump.after_bidding": ("up-and-down", "trump: {rule: chosen, after_bidding: true}"),
    "trump.choose_after": ("georgian", "trump: {choose_after: 2}"),
    "trump.choose_no_trump": ("georgian", "trump: {choose_no_trump: false}"),
    "dealing.cut_by": ("odessa", "dealing: {cut_by: dealer_left}"),
    "bidding.min": ("odessa", "bidding: {min: 1}"),
    "bidding.max": ("odessa", "bidding: {max: 'cards - 1'}"),
    "bidding.hook": ("odessa", "bidding: {hook: false}"),
    "bidding.total": ("odessa", "bidding: {total: over}"),
    "bidding.hook_exempt": ("odessa", "bidding: {hook_exempt: 'cards < 4'}"),
    "bidding.first_bidder": ("odessa", "bidding: {first_bidder: dealer}"),
    "bidding.dash_limit": ("odessa", "bidding: {dash_limit: 1}"),
    "bidding.auction": ("estimation", "bidding: {auction: {min: 5}}"),
    "bidding.auction.min": ("estimation", "bidding: {auction: {min: 5}}"),
    "bidding.auction.order": ("estimation", "bidding: {auction: {order: [S, H, D, C]}}"),
    "bidding.auction.dash": ("estimation", "bidding: {auction: {dash: false}}"),
    "play.must_follow": ("odessa", "play: {must_follow: false, must_trump: false}"),
    "play.must_trump": ("odessa", "play: {must_trump: false}"),
    "play.first_leader": ("odessa", "play: {first_leader: last_trick_winner}"),
    "play.lead_trump": ("odessa", "play: {lead_trump: when_broken}"),
    "play.must_overtrump": ("odessa", "play: {must_overtrump: true}"),
    "jokers.lead": ("odessa", "jokers: {lead: [demand, high, takes, free, open]}"),
    "jokers.follow": ("odessa", "jokers: {follow: [high]}"),
    "jokers.exempt": ("odessa", "jokers: {exempt: false}"),
    "jokers.lead_on": ("odessa", "jokers: {lead_on: never}"),
    "jokers.demand_void": ("odessa", "jokers: {demand_void: highest_trump}"),
    "jokers.beaten_by_trump": ("odessa", "jokers: {beaten_by_trump: true}"),
    "jokers.two_high": ("georgian", "jokers: {two_high: first_wins}"),
    "jokers.impersonate": ("odessa", "jokers: {impersonate: true}"),
    "jokers.answer": ("odessa", "jokers: {lead: [highest], answer: highest_trump}"),
    "special_card.card": ("russian", "special_card: {card: 7H}"),
    "special_card.lead": ("russian", "special_card: {lead: [highest, high]}"),
    "special_card.follow": ("russian", "special_card: {follow: [high]}"),
    "special_card.exempt": ("russian", "special_card: {exempt: true}"),
    "special_card.lead_on": ("russian", "special_card: {lead_on: first_trick}"),
    "special_card.demand_void": ("russian", "special_card: {lead: [demand], demand_void: must_trump}"),
    "special_card.beaten_by_trump": ("russian-protection", "special_card: {beaten_by_trump: true}"),
    "special_card.two_high": ("russian", "special_card: {card: 7S}\njokers: {lead: [high]}\n"
                                         "deck: {designated_jokers: [6S]}"),
    "special_card.impersonate": ("russian", "special_card: {impersonate: true}"),
    "special_card.answer": ("russian", "special_card: {answer: highest_of_suit}"),
    "special_card.turned_as_trump": ("russian", "special_card: {turned_as_trump: no_trump}"),
    "special_card.cut_zeroes_total": ("russian", "special_card: {cut_zeroes_total: true}"),
    "special_card.cut_shows": ("russian-cut", "special_card: {cut_shows: remaining_top}"),
    "scoring.params": ("odessa", "scoring: {params: {pass: 7}}"),
    "scoring.deal": ("odessa", "scoring: {deal: 'taken'}"),
    "scoring.set_bonus": ("odessa", "scoring: {set_bonus: 'set_all_made ? 10 : 0'}"),
    "penalties.revoke": ("russian", "penalties: {revoke: {points: -20}}"),
    "penalties.revoke.points": ("odessa", "penalties: {revoke: {points: -40}}"),
    "penalties.revoke.replay": ("odessa", "penalties: {revoke: {replay: false}}"),
    "penalties.revoke.then": ("odessa", "penalties: {revoke: {then: abandon}}"),
    "penalties.revoke.covers": ("odessa", "penalties: {revoke: {covers: [R010]}}"),
    "penalties.revoke.multiplied": ("odessa", "penalties: {revoke: {multiplied: true}}"),
    "end.stop_loss": ("odessa", "end: {stop_loss: 200}"),
    "end.stop_on": ("up-and-down-online", "end: {stop_on: total}"),
    "end.stop_check": ("up-and-down-online", "end: {stop_check: set}"),
    "end.target": ("odessa", "end: {target: 100}"),
    "end.target_exact": ("oh-well", "end: {target_exact: true}"),
    "end.tie_break": ("odessa", "end: {tie_break: most_made}"),
    "end.max_deals": ("oh-well", "end: {max_deals: 50}"),
    "settlement.method": ("odessa", "settlement: {method: pairwise}"),
    "settlement.stake": ("odessa", "settlement: {stake: 2}"),
    "settlement.negative_doubles": ("odessa", "settlement: {negative_doubles: true}"),
    "settlement.cap": ("up-and-down-online", "settlement: {cap: 300}"),
    "settlement.places": ("oh-hell", "players: {min: 4, max: 4, default: 4}\n"
                                     "settlement: {method: places, places: [3, 1, -1, -3]}"),
}
#: keys that are words about the rules, sections that only hold keys, or the trump keys of a
#: kind (the same sentences as the variant's trump, covered there)
NOT_RULES = {"name", "description", "source", "extends", "deck", "kinds", "trump", "dealing", "bidding",
             "play", "jokers", "special_card", "scoring", "penalties", "end", "settlement",
             "trump.joker_turned"}


def test_every_rule_key_has_a_change_here() -> None:
    keys = {k for k in docgen.key_paths() if not k.startswith("schedule[]") and not k.startswith("kinds.<name>.trump.")}
    assert keys - NOT_RULES - set(CHANGES) == set()


@pytest.mark.parametrize("key", sorted(CHANGES))
def test_every_rule_has_its_sentence(key: str) -> None:
    base_name, change = CHANGES[key]
    base = load_variant(base_name)
    changed = loads_variant(f"name: changed\nextends: {base_name}\n{change}\n")
    book = rule_book(changed, None, base)
    assert book.sections[0].key == "changes"
    assert isinstance(book.sections[0].blocks[0], Bullets), f"{key}: the book says nothing changed"


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_variant_has_a_book_in_every_format(name: str) -> None:
    book = rule_book(load_variant(name))
    keys = [s.key for s in book.sections]
    assert {"players", "pack", "schedule", "trump", "bidding", "play", "scoring", "penalties", "end",
            "settlement"} <= set(keys)
    for fmt, mark in (("text", "Scoring\n-------"), ("md", "## Scoring"), ("html", "<h2 id=\"scoring\">")):
        assert mark in render(book, fmt)


def test_variants_md_blocks_are_fresh_and_cover_every_bundled_variant() -> None:
    text = (ROOT / "docs/variants.md").read_text(encoding="utf-8")
    assert sorted(bookdocs.names_in(text)) == sorted(bundled_names())
    assert bookdocs.refresh(text) == text, (
        "docs/variants.md's rule books are stale: run python -m updown_dsl.lang.bookdocs --write docs/variants.md")


def test_bookdocs_check_and_write(tmp_path: Path) -> None:
    page = tmp_path / "v.md"
    page.write_text(f"# x\n{bookdocs.begin('odessa-hard-pass')}\nold\n<!-- END RULE BOOK odessa-hard-pass -->\n",
                    encoding="utf-8")
    assert bookdocs.main(["--check", str(page)]) == 1
    assert bookdocs.main(["--write", str(page)]) == 0
    assert "`pass` (0) points" in page.read_text(encoding="utf-8")
    assert bookdocs.main(["--check", str(page)]) == 0


def test_cli_explain() -> None:
    from updown_dsl.cli import app

    runner = make_runner()
    r = runner.invoke(app, ["variant", "explain", "odessa", "--players", "3", "--format", "md"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("# odessa\n") and "14 deals for 3 players." in r.stdout
    r = runner.invoke(app, ["variant", "explain", str(ROOT / "docs/house-rules/odessa-house.yaml")])
    assert r.exit_code == 0 and "What odessa-house changes in odessa" in r.stdout
    r = runner.invoke(app, ["variant", "explain", "georgian", "--format", "html"])
    assert r.exit_code == 0 and r.stdout.startswith("<!DOCTYPE html>") and "<table>" in r.stdout
    assert runner.invoke(app, ["variant", "explain", "odessa", "--format", "pdf"]).exit_code == 2
    assert runner.invoke(app, ["variant", "explain", "odessa", "--players", "9"]).exit_code == 2
    assert runner.invoke(app, ["variant", "explain", "odessa", "--lang", "xx"]).exit_code == 2
    assert runner.invoke(app, ["variant", "explain", "no-such-variant"]).exit_code == 3


def test_a_trump_no_deal_uses_is_not_described() -> None:
    # Estimation: every deal is an auction (its calls name trump) or a fast hand of a fixed
    # trump; the variant's own trump (none) is used by no deal, so "There is no trump" would
    # be false. A variant whose normal deals use the variant's trump still describes it.
    def trump_section(v: object) -> str:
        return to_text(rule_book(v)).split("\nTrump\n", 1)[1].split("\n\n", 1)[0]  # type: ignore[arg-type]

    estimation = trump_section(load_variant("estimation"))
    assert "There is no trump." not in estimation
    assert "The trump of each kind of deal is given with the kinds of deal above." in estimation
    assert "highest call names trump" in estimation
    assert "its suit is trump" in trump_section(load_variant("oh-hell"))
