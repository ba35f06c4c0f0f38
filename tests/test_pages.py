"""The pages of records without a browser: the replay data is the checker's, problems sit at
their trick, the page is self-contained; ``updown view`` writes it and never overwrites."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from updown_dsl import Game, load_variant
from updown_dsl.lang.loader import bundled_names
from updown_dsl.pages.game import sheet_html
from updown_dsl.pages.html import json_script, page
from updown_dsl.pages.replay import replay_data, totals_by_deal
from updown_dsl.pages.sheet import result_blocks, sheet_rows
from updown_dsl.records.checker import check_file, check_text
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript

from clikit import make_runner

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
matplotlib = pytest.importorskip("matplotlib", reason='the charts need matplotlib: pip install "updown-dsl[charts]"')


def boxed(text: str) -> str:
    """The text of a usage error without Rich's box and its line breaks."""
    return re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", text))


def problems(path: str) -> list[tuple[int, str, str, int, int | None]]:
    data = replay_data(check_file(EXAMPLES / path))
    return [(d["number"], p["code"], p["at"], p["trick"], p["seat"]) for d in data["deals"] for p in d["problems"]]


def test_problems_sit_at_their_deal_and_trick():
    # invalid-revoke.log: Anna (seat 0) revokes in trick 1 of deal 3 (line 58) and fails to
    # trump in trick 2 (line 61).
    assert problems("invalid-revoke.log") == [(3, "R010", "trick", 1, 0), (3, "R011", "trick", 2, 0)]
    # the hook: a bid of the last bidder (Dasha, seat 3? the dealer) in deal 7
    [(number, code, at, trick, seat)] = problems("invalid-hook.log")
    assert (number, code, at, trick) == (7, "R021", "bids", 0)
    game = check_file(EXAMPLES / "invalid-hook.log").game
    assert seat == game.results[6].dealer  # the hook binds the dealer, who bids last
    # the wrong leader of trick 4 of deal 8: the deal goes on with the lead as written, so the
    # problem is shown at trick 4, with the seat that led it
    [(number, code, at, trick, seat)] = problems("invalid-leader.log")
    assert (number, code, at, trick) == (8, "R003", "trick", 4)
    assert seat == check_file(EXAMPLES / "invalid-leader.log").game.results[7].tricks[3].leader
    # a score written wrong: with the scores
    assert [p[:3] for p in problems("invalid-score.log")] == [(problems("invalid-score.log")[0][0], "R050", "score")]
    assert [p[1:3] for p in problems("invalid-dealer.log")] == [("R042", "bids")]


def test_an_auctions_calls_are_shown_with_the_bids_and_a_bad_call_at_the_bidding():
    golden = Path(__file__).resolve().parent / "golden" / "estimation"
    data = replay_data(check_file(golden / "clean-full.log"))
    first = data["deals"][0]
    # Deal 1: Anna 4 S, Boris 4 S, Vera 6 C (the highest: her bid), Gleb 4 H.
    assert first["calls"] == ["4 ♠", "4 ♠", "6 ♣", "4 ♥"] and first["bids"][2] == 6
    assert all(d["calls"] is None for d in data["deals"][13:])  # the fast hands have no auction
    bad = replay_data(check_file(golden / "low-call-full.log"))
    assert [(d["number"], p["code"], p["at"], p["seat"]) for d in bad["deals"] for p in d["problems"]] == \
        [(2, "R024", "bids", 1)]


def test_replay_is_the_engines_game():
    report = check_file(EXAMPLES / "georgian-full.log")
    data = replay_data(report)
    game = report.game
    assert len(data["deals"]) == len(game.results) == 24
    for deal, r in zip(data["deals"], game.results):
        assert [t["winner"] for t in deal["tricks"]] == [t.winner for t in r.tricks]
        assert [[p["written"] for p in t["plays"]] for t in deal["tricks"]] == [
            [str(p.play) for p in t.plays] for t in r.tricks]
        assert sorted(c["code"] for h in deal["hands"] for c in h) == sorted(str(c) for h in r.hands for c in h)
    assert data["deals"][-1]["totals"] == list(game.totals)
    labels, series = totals_by_deal(data)
    assert labels[:3] == ["0", "1", "2"] and [s[-1] for s in series] == list(game.totals)
    # deal 3 of the georgian example: Vera leads the ace of spades, Boris's JK2 low, Anna wins
    first = data["deals"][2]["tricks"][0]
    assert [(p["seat"], p["written"]) for p in first["plays"]] == [(2, "AS"), (3, "9S"), (0, "9C"), (1, "JK2 low")]
    assert first["winner"] == 0 and first["plays"][3]["declare"] == "low"
    assert data["summary"]["winners"] == ["Gleb"]


def test_plays_and_sheet_levels():
    plays = replay_data(check_file(EXAMPLES / "georgian-plays.log"))
    full = replay_data(check_file(EXAMPLES / "georgian-full.log"))
    assert all(d["hands"] is None for d in plays["deals"])  # the cards as they fell, no hands
    assert [d["tricks"] for d in plays["deals"]] == [d["tricks"] for d in full["deals"]]
    sheet = replay_data(check_file(EXAMPLES / "georgian-sheet.log"))
    assert all(d["tricks"] == [] for d in sheet["deals"])
    assert [d["totals"] for d in sheet["deals"]] == [d["totals"] for d in full["deals"]]


def test_penalty_and_abandoned_rows_keep_their_blocks():
    report = check_file(EXAMPLES / "odessa-revoke-abandoned.log")
    kinds = [r.event for r in report.game.results]
    assert kinds[2:4] == ["revoke", "abandoned"]
    blocks = result_blocks(report.game, report.transcript)
    assert blocks[2] == blocks[3] == 2 and blocks[4] == 3  # the penalty shares the block of its deal
    data = replay_data(report)
    revoke = data["deals"][2]
    assert revoke["kind"] == "revoke" and revoke["tricks"][-1]["winner"] is None  # stopped at the card
    assert [d["totals"] for d in data["deals"]] == [[s["total"] for s in r["seats"]] for r in
                                                    sheet_rows(report.game, list(report.transcript.players),
                                                               report.transcript)]


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_variant_and_level(name):
    variant = load_variant(name)
    game = Game(variant, variant.default_players, seed=7)
    rng = random.Random(7)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    names = [f"P{i + 1}" for i in range(game.players)]
    for level in ("full", "plays", "sheet"):
        text = format_transcript(game_transcript(game, names, level=level, variant=name))
        report = check_text(text)
        assert report.clean, (level, report.diagnostics[:2])
        data = replay_data(report)
        assert data["deals"][-1]["totals"] == list(game.totals)
        sheet = sheet_html(data)  # the page's sheet: one row per result, the settlement at the foot
        assert sheet.count("data-row=") == len(game.results) and "settlement" in sheet
        assert (data["deals"][0]["hands"] is not None) == (level == "full")
        if level != "sheet":
            assert [len(d["tricks"]) for d in data["deals"] if d["kind"] == "deal"] == [
                r.deal.cards for r in game.results if r.event == "deal"]


def test_json_in_a_page_cannot_end_its_script():
    data = {"name": "</script><script>alert(1)</script>&"}
    html = json_script("x", data)
    assert html.startswith('<script type="application/json" id="x">') and html.endswith("</script>")
    body = html[len('<script type="application/json" id="x">'):-len("</script>")]
    assert "<" not in body and ">" not in body and "&" not in body
    assert json.loads(body) == data


def test_page_is_self_contained():
    from updown_dsl.pages.game import game_page

    html = game_page(check_file(EXAMPLES / "georgian-full.log"))
    assert "default-src 'none'" in html  # the page may load nothing
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html
    assert not re.search(r"url\((?!#)", html)  # only the chart's own clip paths
    assert html.count("<svg") == 1 and ">Gleb</text>" in html  # the chart, its legend as text
    assert 'class="sheet"' in html and "replay" in html


@pytest.mark.slow
def test_an_archive_gets_an_index():
    from updown_dsl.pages.game import archive_page
    from updown_dsl.records.checker import check_lines

    text = (EXAMPLES / "odessa-full.log").read_text() + "\n" + (EXAMPLES / "invalid-hook.log").read_text()
    reports = list(check_lines(text.splitlines(), "two.log")) + list(check_lines(["\x00\x01binary"], "bad.log"))
    assert len(reports) == 3
    html = archive_page(reports, title="two.log")
    assert 'href="#game-1"' in html and 'href="#game-2"' in html
    assert 'id="game-1"' in html and 'id="game-2"' in html and 'id="game-3"' not in html
    assert html.count('<tr class="unreadable">') == 1  # in the index, with its reason
    assert html.count("<svg") == 2 and html.count('<script type="application/json" id="game-data-') == 2


# --------------------------------------------------------------------------- updown view


@pytest.mark.slow
def test_view_writes_a_page_and_never_overwrites(tmp_path, monkeypatch):
    from updown_dsl.cli import app

    runner = make_runner()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["view", str(EXAMPLES / "georgian-full.log")])
    assert result.exit_code == 0, result.output
    assert "wrote georgian-full.html (24 deals)" in result.stdout
    page_text = (tmp_path / "georgian-full.html").read_text(encoding="utf-8")
    assert page_text.startswith("<!DOCTYPE html>")
    again = runner.invoke(app, ["view", str(EXAMPLES / "georgian-full.log")])
    assert again.exit_code == 2 and "add --force" in boxed(again.stderr)
    (tmp_path / "mine.html").write_text("mine")
    named = runner.invoke(app, ["view", str(EXAMPLES / "georgian-full.log"), "-o", "mine.html"])
    assert named.exit_code == 2 and (tmp_path / "mine.html").read_text() == "mine"
    forced = runner.invoke(app, ["view", str(EXAMPLES / "georgian-full.log"), "-o", "mine.html", "--force"])
    assert forced.exit_code == 0 and (tmp_path / "mine.html").read_text(encoding="utf-8") == page_text


def test_view_of_broken_and_unreadable_records(tmp_path):
    from updown_dsl.cli import app

    runner = make_runner()
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["view", str(EXAMPLES / "invalid-revoke.log"), "-o", str(out)])
    assert result.exit_code == 1  # written, and the record breaks rules
    assert "2 problems found, shown on the page" in result.stdout
    assert "R010" in out.read_text(encoding="utf-8")
    bad = runner.invoke(app, ["view", str(EXAMPLES / "invalid-binary.log"), "-o", str(tmp_path / "b.html")])
    assert bad.exit_code == 3 and "T001" in bad.stderr and not (tmp_path / "b.html").exists()
    assert "Traceback" not in bad.output + bad.stderr
    few = runner.invoke(app, ["view", str(EXAMPLES / "odessa-full.log"), "--game", "2", "-o", str(tmp_path / "x.html")])
    assert few.exit_code == 2 and "holds 1 game, not 2" in boxed(few.stderr)


def test_view_without_matplotlib_says_what_to_install(tmp_path, monkeypatch):
    import builtins

    from updown_dsl.cli import app

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result = make_runner().invoke(app, ["view", str(EXAMPLES / "odessa-full.log"), "-o", str(tmp_path / "o.html")])
    assert result.exit_code == 3
    assert 'pip install "updown-dsl[charts]"' in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "o.html").exists()


def test_page_frame_escapes_the_title():
    assert "<title>a&lt;b: updown</title>" in page("a<b: updown", "")


def test_a_page_names_no_folder_of_the_machine_it_was_made_on(tmp_path):
    from updown_dsl.cli import app

    record = tmp_path / "deep" / "folder" / "game.log"
    record.parent.mkdir(parents=True)
    record.write_text((EXAMPLES / "georgian-full.log").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "page.html"
    result = make_runner().invoke(app, ["view", str(record), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    html = out.read_text(encoding="utf-8")
    assert "game.log" in html and str(record.parent) not in html and str(tmp_path) not in html
