"""Sheets shared as a string (:mod:`updown_dsl.players.share`), as CSV (:mod:`updown_dsl.records.csvsheet`),
given where a record goes (``check``, ``sheet``, ``view``, ``convert``, ``keep --resume``), and the
corrections on the web page."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl.cli import app
from updown_dsl.lang.loader import bundled_names
from updown_dsl.players.keeper import KeepError
from updown_dsl.players.share import PREFIX, ShareError, read_share, share_string
from updown_dsl.records.checker import check_text
from updown_dsl.records.csvsheet import read_csv_sheet, sheet_csv
from updown_dsl.records.transcript import format_transcript

from clikit import make_runner
from test_keep import random_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("variant", bundled_names())
def test_a_shared_string_is_the_record_it_was_made_from(variant: str) -> None:
    k = random_game(variant, 21)
    if len(k.deals) > 2:
        d = k.deals[1]
        try:
            k.edit(2, took=tuple(reversed(d.took or ())), when="2024-05-18T21:03")
        except KeepError:
            pass  # a game to a target that would have ended sooner: nothing changed
    s = share_string(k)
    assert s.startswith(PREFIX) and re.fullmatch(r"[A-Za-z0-9_.-]+", s)
    again = read_share(s, ud.load_variant)
    assert format_transcript(again.transcript()) == format_transcript(k.transcript())


def test_a_24_deal_georgian_sheet_takes_at_most_600_characters() -> None:
    lengths = []
    for seed in range(20):
        k = random_game("georgian", seed)
        assert len(k.deals) == 24 and k.players == 4
        k.edit(3, bids=k.deals[2].bids, took=tuple(reversed(k.deals[2].took or ())))
        lengths.append(len(share_string(k)))
    assert max(lengths) <= 600, lengths


@pytest.mark.parametrize("damage", [lambda s: s[:-20], lambda s: s[:10] + "!" + s[11:], lambda s: "ud1.AAAA"])
def test_a_damaged_string_is_refused(damage: object) -> None:
    s = share_string(random_game("odessa", 2))
    with pytest.raises(ShareError):
        read_share(damage(s), ud.load_variant)  # type: ignore[operator]


def test_check_sheet_view_and_keep_take_a_shared_string(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = make_runner()
    k = random_game("odessa", 5)
    s = share_string(k)
    assert runner.invoke(app, ["check", s]).exit_code == 0
    sheet = runner.invoke(app, ["sheet", s])
    assert sheet.exit_code == 0 and "<shared sheet>" in sheet.output
    assert runner.invoke(app, ["view", s]).exit_code == 0 and (tmp_path / "shared.html").exists()
    bad = runner.invoke(app, ["check", s[:-30]])
    assert bad.exit_code == 3 and "T001" in bad.output + (bad.stderr if hasattr(bad, "stderr") else "")
    shared = runner.invoke(app, ["share", str(ROOT / "docs/examples/odessa-full.log")])
    assert shared.exit_code == 0 and shared.output.startswith(PREFIX)
    half = random_game("georgian", 3)
    half.deals = half.deals[:5]
    from updown_dsl.players.keeper import Keeper, restored

    part = restored(Keeper(half.variant, half.names, label="georgian"), half.deals, [])
    r = runner.invoke(app, ["keep", "--resume", share_string(part), "--save", "again.log"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "Stopped after deal 5" in r.output
    assert runner.invoke(app, ["check", "again.log"]).exit_code == 0


def test_csv_round_trip_of_every_bundled_variant() -> None:
    for variant in bundled_names():
        k = random_game(variant, 8)
        text = sheet_csv(k.names, k.game.results, [("variant", variant)], k.variant)
        record = read_csv_sheet(text, "g.csv")
        report = check_text(record.text, "g.csv")
        assert not record.problems and not report.diagnostics, (variant, [str(d) for d in report.diagnostics])
        assert tuple(report.game.totals) == k.totals  # type: ignore[union-attr]


def test_share_csv_writes_a_row_per_deal(tmp_path: Path) -> None:
    r = make_runner().invoke(app, ["share", str(ROOT / "docs/examples/odessa-full.log"), "--csv"])
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[:2] == ["# variant: odessa", "# first-dealer: Gleb"]
    rows = list(csv.reader(io.StringIO("\n".join(lines[2:]))))
    assert rows[0][:6] == ["deal", "cards", "dealer", "trump", "Anna bid", "Anna took"]
    assert rows[1] == ["1", "1", "Gleb", "H", "0", "1", "1", "1", "0", "0", "5", "5", "1", "0", "-10", "-10",
                       "1", "0", "-10", "-10"]
    assert len(rows) == 16


def test_check_of_a_csv_points_at_the_breaking_cell(tmp_path: Path) -> None:
    """A sheet of bids and tricks from another app: the dealer's forbidden bid and a count of
    tricks that does not add up, each at its cell."""
    sheet = tmp_path / "app.csv"
    sheet.write_text(
        "# variant: odessa\n"
        "deal,trump,Anna bid,Anna took,Boris bid,Boris took,Vera bid,Vera took,Gleb bid,Gleb took\n"
        "1,H,1,1,0,0,0,0,1,0\n"
        "2,S,0,0,1,1,0,1,1,0\n"
        "3,D,1,1,1,0,1,1,1,0\n", encoding="utf-8")
    r = make_runner().invoke(app, ["check", str(sheet)])
    assert r.exit_code == 1
    # deal 2: Anna deals and bids last; her 0 makes the bids total the 2 cards
    assert f"{sheet}:4:5: error[R021] Anna (deal 2): the last bidder may not bid 0" in r.output
    # deal 3: 1 + 0 + 1 + 0 tricks of 3, at the row's first tricks cell (Anna's)
    assert f"{sheet}:5:7: error[R053] tricks taken 1 + 0 + 1 + 0 = 2 do not add up to the 3 cards" in r.output
    clean = tmp_path / "clean.csv"
    clean.write_text("# variant: odessa\ndeal,trump,Anna bid,Anna took,Boris bid,Boris took,Vera bid,Vera took,"
                     "Gleb bid,Gleb took\n1,H,1,1,0,0,0,0,1,0\n", encoding="utf-8")
    assert make_runner().invoke(app, ["check", str(clean)]).exit_code == 0


def test_the_hook_in_a_csv_is_at_the_dealers_bid(tmp_path: Path) -> None:
    sheet = tmp_path / "hook.csv"
    sheet.write_text("# variant: odessa\ndeal,trump,Anna bid,Anna took,Boris bid,Boris took,Vera bid,Vera took,"
                     "Gleb bid,Gleb took\n1,H,1,1,0,0,0,0,0,0\n", encoding="utf-8")
    r = make_runner().invoke(app, ["check", str(sheet)])
    assert r.exit_code == 1
    m = re.search(rf"{re.escape(str(sheet))}:3:(\d+): error\[R021\]", r.output)
    assert m is not None and int(m.group(1)) == len("1,H,1,1,0,0,0,0,") + 1  # Gleb's bid


def test_view_marks_the_corrected_numbers(tmp_path: Path) -> None:
    k = random_game("odessa", 6)
    k.edit(2, took=tuple(reversed(k.deals[1].took or ())), when="2024-05-18T21:03")
    log = tmp_path / "kept.log"
    log.write_text(format_transcript(k.transcript()), encoding="utf-8")
    out = tmp_path / "kept.html"
    assert make_runner().invoke(app, ["view", str(log), "-o", str(out)]).exit_code == 0
    page = out.read_text(encoding="utf-8")
    marked = re.findall(r'class="cell corrected" title="corrected: took (\d+) → (\d+) at deal 15, 2024-05-18T21:03"',
                        page)
    assert marked and len(marked) == sum(1 for c in k.corrections)
    assert page.count('<li class="correction">') == len(marked)


def test_a_sheet_of_bids_and_tricks_without_scores_checks_clean_in_every_variant() -> None:
    """Bids and tricks only, as another app writes them: clean, minimum deals (no bids) included."""
    for variant in bundled_names():
        k = random_game(variant, 12)
        text = sheet_csv(k.names, k.game.results, [("variant", variant)], k.variant)
        rows = list(csv.reader(io.StringIO(text.split("\n", 1)[1])))
        keep = [c for c, name in enumerate(rows[0]) if c < 4 or name.endswith((" call", " bid", " took"))]
        out = io.StringIO()
        out.write(f"# variant: {variant}\n")
        csv.writer(out, lineterminator="\n").writerows([[r[c] for c in keep] for r in rows if r])
        report = check_text(read_csv_sheet(out.getvalue(), "g.csv").text, "g.csv")
        assert not report.diagnostics, (variant, [str(d) for d in report.diagnostics])


def test_check_of_a_json_sheet_points_at_the_number(tmp_path: Path) -> None:
    sheet = tmp_path / "app.json"
    sheet.write_text(
        '{"variant": "odessa", "players": ["Anna", "Boris", "Vera", "Gleb"],\n'
        ' "deals": [\n'
        '  {"deal": 1, "trump": "H", "bids": [1, 0, 0, 1], "took": [1, 0, 0, 0], "scores": [10, 5, 5, -10]},\n'
        '  {"deal": 2, "trump": "S", "bids": [0, 1, 0, 1], "took": [0, 1, 1, 0]},\n'
        '  {"deal": 3, "trump": "D", "bids": [1, 1, 1, 1], "took": [1, 0, 1, 0]}\n'
        ' ]}\n', encoding="utf-8")
    r = make_runner().invoke(app, ["check", str(sheet)])
    assert r.exit_code == 1
    assert f"{sheet}:4:38: error[R021] Anna (deal 2)" in r.output
    assert f"{sheet}:5:60: error[R053]" in r.output
    assert '4 |   {"deal": 2' in r.output  # the JSON line itself is shown
    wrong = sheet.read_text(encoding="utf-8").replace("[10, 5, 5, -10]", "[10, 5, 50, -10]")
    sheet.write_text(wrong, encoding="utf-8")
    r = make_runner().invoke(app, ["check", str(sheet)])
    col = wrong.splitlines()[2].index("50") + 1
    assert f"{sheet}:3:{col}: error[R050]" in r.output  # Vera's score, at its number


@pytest.mark.parametrize("text", ['{"deals": [', '{"deals": ' + "[" * 100 + "]" * 100 + "}", '{"deals": 3}'])
def test_a_broken_json_sheet_is_unreadable(tmp_path: Path, text: str) -> None:
    sheet = tmp_path / "bad.json"
    sheet.write_text(text, encoding="utf-8")
    r = make_runner().invoke(app, ["check", str(sheet)])
    assert r.exit_code == 3
