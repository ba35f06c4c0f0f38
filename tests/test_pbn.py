"""Deals exported by another program as PBN (updown_dsl/records/pbn.py), read as records.

The real exports are in tests/data/pbn/, each with the address it was posted at. Deals of
bot games written as PBN here (the layout of those exports: the hands as dealt, the bids from
the first bidder, a trick a line in fixed seat columns) read back into the same cards in the
same order, and check clean: the leader of each trick is worked out by the rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import updown_dsl as ud
from updown_dsl.cli import app
from updown_dsl.players.bots import make_bot
from updown_dsl.records.checker import check_text
from updown_dsl.records.pbn import SEATS, looks_like_pbn, read_pbn

DATA = Path(__file__).parent / "data" / "pbn"
TRICKSTER = (DATA / "trickster-245.pbn").read_text()

EXPECTED_245 = """\
variant: oh-hell
option: bidding.hook=false
option: schedule=[{cards: 5}]
option: players={min: 4, max: 4, default: 4}
players: Vanessa Joann Rick Fletcher
first-dealer: Fletcher
level: full
date: 2024-04-14
event: Trickster Cards: Practice Oh Hell - 4-player, deal 10..1..10 without hook
# PBN [UTCTime 23:45:36]
# PBN [LocalDateTime 4/14/2024 4:45 PM PDT]
# PBN [GameOptionsJson {"hookRule":false,"noWatching":true}]
# PBN [GameScores S:82 95 98 79]

deal 1 cards 5 dealer Fletcher
hand Vanessa 6H 4H JD 9C 5C
hand Joann AS 3S 10H QD QC
hand Rick 5S 3H 9D 4D 7C
hand Fletcher 7S 6D AC JC 6C
turned QH
Vanessa bid 2
Joann bid 2
Rick bid 0
Fletcher bid 0
Vanessa play 4H
Joann play 10H
Rick play 3H
Fletcher play AC
Joann play AS
Rick play 5S
Fletcher play 7S
Vanessa play 6H
Vanessa play JD
Joann play QD
"""


def test_trickster_export_reads_as_this_record() -> None:
    """The export of TricksterBots issue #245: West deals, North bids and leads first; East's
    ten of hearts takes trick 1 (hearts, the first card left in the pack, are trump), so East
    leads the ace of spades at trick 2 and North, void, trumps it and leads trick 3."""
    got = read_pbn(TRICKSTER, "t.pbn")
    assert got.problems == []
    assert got.text == EXPECTED_245
    assert looks_like_pbn(TRICKSTER)


def test_the_docs_show_this_record() -> None:
    docs = (Path(__file__).parent.parent / "docs" / "transcript-format.md").read_text()
    assert "```text\n" + EXPECTED_245 + "```" in docs


def test_trickster_export_checks_clean_and_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "deal.pbn"
    path.write_text(TRICKSTER)
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path}:23:4: note[T020] the record stops in deal 1 of 1: the game is unfinished" in result.output
    assert "1 clean; 1 unfinished" in result.output


def test_other_trumps_would_not_fit_the_export() -> None:
    """The reading of [Undealt]'s first card as the turned one is what makes the play legal:
    with spades turned, East's ace would take trick 2 and lead trick 3, yet North's card is
    there and South's and West's are not."""
    text = TRICKSTER.replace('[Undealt "HQHJ', '[Undealt "SKHJ').replace("SKS6D3", "HQS6D3")
    problems = read_pbn(text, "t.pbn").problems
    assert [(d.code, d.line, d.col, d.message) for d in problems] == [
        ("T002", 23, 1, "a card after one not played yet in the same trick")]


def test_a_revoke_is_reported_at_its_pbn_cell(tmp_path: Path) -> None:
    path = tmp_path / "revoke.pbn"
    path.write_text(TRICKSTER.replace("H6 SA S5 S7", "H6 SA S5 D6"))
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert (f"{path}:22:10: error[R010] Fletcher (deal 1, trick 2): 6D does not follow the led suit, spades, "
            "which the player holds; the hand holds 7S") in result.output


@pytest.mark.parametrize(("change", "code", "place"), [
    (("[GameCode \"OhHell\"]", "[GameCode \"Spades\"]"), "T001", (8, 12)),
    (("[Dealer \"W\"]", "[Dealer \"X\"]"), "T009", (15, 10)),
    (("DJ DQ - -", "DJ - DQ -"), "T002", (23, 6)),
    (("H6 SA S5 S7", "H6 SA S5"), "T002", (22, 1)),
    (("H4 HT H3 CA", "H4 HT H3 C1"), "T003", (21, 10)),
    (("[Deal \"W:7..6.AJ6 ", "[Deal \"W:7..6.AJ6.C "), "T009", (16, 10)),
])
def test_what_cannot_be_read_is_said_at_its_place(change: tuple[str, str], code: str,
                                                   place: tuple[int, int]) -> None:
    text = TRICKSTER.replace(*change)
    assert text != TRICKSTER
    problems = read_pbn(text, "t.pbn").problems
    assert [(d.code, d.line, d.col) for d in problems] == [(code, *place)]


def test_a_bridge_deal_is_refused(tmp_path: Path) -> None:
    """A bridge deal (TricksterBots issue #140) has no [GameCode "OhHell"]: unreadable, exit 3."""
    path = tmp_path / "bridge.pbn"
    path.write_text((DATA / "trickster-140-bridge.pbn").read_text())
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 3
    assert "error[T001] updown does not read PBN deals of this game: its [GameCode] is ''" in result.output


def test_convert_writes_the_record(tmp_path: Path) -> None:
    src, out = tmp_path / "deal.pbn", tmp_path / "deal.log"
    src.write_text(TRICKSTER)
    result = CliRunner().invoke(app, ["convert", str(src), "--to", "log", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("variant: oh-hell\noption: bidding.hook=false\n")
    assert CliRunner().invoke(app, ["check", str(out)]).exit_code == 0


# -- bot games written as PBN read back to the same play ------------------------------------------

_SUIT_ORDER = "SHDC"


def _pbn_rank(card: ud.Card) -> str:
    return str(card)[:-1].replace("10", "T")


def _pbn(game: ud.Game, dealer: int, hands: list[tuple[ud.Card, ...]], turned: ud.Card | None,
         bids: list[tuple[int, int]], plays: list[tuple[int, ud.Card]], hook: bool) -> str:
    """One deal in the layout of the exports (seats N, E, S, W are 0..3 here)."""
    def hand(cards: tuple[ud.Card, ...]) -> str:
        return ".".join("".join(_pbn_rank(c) for c in cards if str(c)[-1] == s) for s in _SUIT_ORDER)

    first = bids[0][0]
    lead = plays[0][0]
    lines = ['[GameCode "OhHell"]', f'[GameOptionsJson "{{"hookRule":{"true" if hook else "false"}}}"]',
             f'[Dealer "{SEATS[dealer]}"]',
             f'[Deal "{SEATS[dealer]}:' + " ".join(hand(hands[(dealer + k) % 4]) for k in range(4)) + '"]',
             f'[Undealt "{str(turned)[-1] + _pbn_rank(turned) if turned else ""}"]',
             f'[Auction "{SEATS[first]}"]', " ".join(str(b) for _, b in bids), f'[Play "{SEATS[lead]}"]']
    for t in range(0, len(plays), 4):
        row = {seat: c for seat, c in plays[t:t + 4]}
        lines.append(" ".join(str(row[(lead + k) % 4])[-1] + _pbn_rank(row[(lead + k) % 4]) for k in range(4)))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("hook", [True, False])  # games with the hook keep to it without
def test_bot_deals_read_back_in_the_order_played(hook: bool) -> None:
    variant = ud.load_variant("oh-hell")
    rng = random.Random(7)
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    checked = 0
    for g in range(3):
        game = ud.Game(variant, 4, seed=100 + g)
        while not game.is_over:
            number, dealer = game.deal_index, game.dealer
            hands, turned = list(game.dealt_hands), game.turned
            bids: list[tuple[int, int]] = []
            plays: list[tuple[int, ud.Card]] = []
            while not game.is_over and game.deal_index == number:
                seat = game.to_act
                action = bots[seat].act(game.view(seat)) if rng.random() < 0.9 else rng.choice(game.legal_actions())
                if isinstance(action, ud.Bid):
                    bids.append((seat, action.tricks))
                else:
                    plays.append((seat, action.card))
                game.apply(action)
            record = read_pbn(_pbn(game, dealer, hands, turned, bids, plays, hook), "g.pbn")
            assert record.problems == []
            written = [line.split(" play ") for line in record.text.splitlines() if " play " in line]
            names = next(x for x in record.text.splitlines() if x.startswith("players:")).split()[1:]
            assert [(names.index(w), ud.Card.parse(c)) for w, c in written] == plays
            report = check_text(record.text)
            assert [d for d in report.diagnostics if d.severity is not ud.Severity.NOTE] == []
            checked += 1
    assert checked == 3 * 23  # three games of 23 deals (1..12..1 cards)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_edit_of_an_export_is_read_or_refused_never_a_crash(data: st.DataObject) -> None:
    """Lines dropped, doubled or changed, characters replaced: the reader says what it could
    not read, and the record it gives is checked without an exception."""
    lines = TRICKSTER.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        k = data.draw(st.integers(0, len(lines) - 1))
        edit = data.draw(st.sampled_from(["drop", "double", "chars", "text"]))
        if edit == "drop":
            del lines[k]
        elif edit == "double":
            lines.insert(k, lines[k])
        elif edit == "chars" and lines[k]:
            at = data.draw(st.integers(0, len(lines[k]) - 1))
            lines[k] = lines[k][:at] + data.draw(st.sampled_from(['"', "[", "]", "-", ".", ":", "X", "9", " ", "T"])) \
                + lines[k][at + 1:]
        else:
            lines[k] = data.draw(st.text(max_size=30))
        if not lines:
            lines = [""]
    record = read_pbn("\n".join(lines), "t.pbn")
    for d in record.problems:
        assert d.code.startswith("T") and d.line is not None and d.message
    if record.text:
        check_text(record.text)
