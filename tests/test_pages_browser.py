"""The pages in a real browser: headless Chromium (the system's), driven by Playwright.

The tests write pages with ``updown view``, open them from ``file://``, step the replay with
the buttons and the arrow keys and read what is shown: each trick's cards and winner and the
running totals must be the checker's. No request may leave the page. Screenshots go to the
test's temporary folder. Without Playwright or a Chromium the tests are skipped, saying so
(CI installs both: see ``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from updown_dsl.records.checker import check_file

from clikit import make_runner

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
REQUIRED = os.environ.get("UPDOWN_BROWSER_TESTS") == "required"  # set by .ci/run: fail, do not skip


def _skip(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why} (UPDOWN_BROWSER_TESTS=required)", pytrace=False)
    pytest.skip(why, allow_module_level=True)


try:
    import matplotlib  # noqa: F401
    from playwright import sync_api
except ImportError:
    _skip('the browser tests need matplotlib and Playwright: pip install "updown-dsl[test]"')

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    """The system's Chromium (``UPDOWN_CHROMIUM`` names another)."""
    given = os.environ.get("UPDOWN_CHROMIUM")
    if given:
        return given
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    exe = chromium()
    if exe is None:
        _skip("no Chromium installed (apt-get install chromium chromium-driver): the browser tests are skipped")
    profile = tempfile.mkdtemp(prefix="updown-chromium-")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=exe, args=ARGS, headless=True,
                                                       viewport={"width": 1100, "height": 1000})
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def open_page(browser, tmp_path):
    """Write the page of a record with ``updown view`` and open it; every request is recorded."""
    from updown_dsl.cli import app

    opened = []

    def _open(record: str, fragment: str = ""):
        out = tmp_path / (Path(record).stem + ".html")
        result = make_runner().invoke(app, ["view", record, "-o", str(out)])
        assert result.exit_code in (0, 1), result.output + result.stderr
        page = browser.new_page()
        errors: list[str] = []
        requests: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: requests.append(r.url))
        url = out.as_uri()
        page.goto(url + fragment)
        opened.append((page, errors, requests, url))
        return page

    yield _open
    for page, errors, requests, url in opened:
        assert errors == [], errors
        assert [r for r in requests if r.split("#")[0] != url] == [], "the page asked for something"
        page.close()


STATE = """() => {
  const board = document.querySelector('section.game:not([hidden]) .board') || document.querySelector('.board');
  const rows = [...board.querySelectorAll('tr.seat-row')];
  return {
    title: board.querySelector('.deal-title').textContent,
    stage: board.querySelector('.stage').textContent,
    played: rows.map(r => [...r.querySelectorAll('td.played .card')].map(c => c.dataset.card)),
    winner: rows.filter(r => r.classList.contains('winner')).map(r => +r.dataset.seat),
    totals: rows.map(r => +r.querySelector('td.total').textContent),
    problems: [...board.querySelectorAll('.problem-box .problem')].map(p => p.dataset.code),
    offenders: rows.filter(r => r.classList.contains('offender')).map(r => +r.dataset.seat),
    gone: rows.map(r => r.querySelectorAll('td.hand .card.gone').length),
  };
}"""


@pytest.mark.slow
def test_georgian_replay_shows_the_checkers_game(open_page, tmp_path):
    record = str(EXAMPLES / "georgian-full.log")
    game = check_file(record).game
    page = open_page(record)
    assert page.locator("table.sheet tbody tr").count() == len(game.results)
    assert page.locator("section.chart svg").count() == 1
    assert page.locator("section.chart svg text", has_text="Gleb").count() >= 1
    page.screenshot(path=str(tmp_path / "georgian-start.png"), full_page=True)
    names = ["Anna", "Boris", "Vera", "Gleb"]
    totals = [0] * 4
    for r in game.results:  # every step of the game, by the arrow key
        state = page.evaluate(STATE)
        assert state["title"].startswith(f"Deal {r.deal.number} of 24")
        assert state["stage"] == "The bidding" and state["totals"] == totals
        for k, trick in enumerate(r.tricks, start=1):
            page.keyboard.press("ArrowRight")
            state = page.evaluate(STATE)
            assert state["stage"] == (f"Trick {k} of {len(r.tricks)}: {names[trick.leader]} leads, "
                                      f"{names[trick.winner]} wins")
            shown = {s: cards for s, cards in enumerate(state["played"])}
            assert shown == {p.seat: [str(p.play.card)] for p in trick.plays}
            assert state["winner"] == [trick.winner]
            assert state["gone"] == [k] * 4  # the cards played so far are greyed in the hands
        page.keyboard.press("ArrowRight")
        r.apply_to(totals)
        state = page.evaluate(STATE)
        assert state["stage"] == "The scores" and state["totals"] == totals
        if r.deal.number == 3:
            page.screenshot(path=str(tmp_path / "georgian-deal-3.png"))
        page.keyboard.press("ArrowRight")
    assert totals == list(game.totals)
    # the buttons: back to the start, then one deal on and the first trick
    page.click('button[data-go="first"]')
    assert page.evaluate(STATE)["title"].startswith("Deal 1 of 24")
    assert page.locator('button[data-go="prev"]').is_disabled()
    page.click('button[data-go="next-deal"]')
    page.click('button[data-go="next"]')
    state = page.evaluate(STATE)
    assert state["title"].startswith("Deal 2 of 24") and state["stage"].startswith("Trick 1 of 2")
    page.keyboard.press("End")
    assert page.evaluate(STATE)["totals"] == list(game.totals)
    # a row of the sheet opens its deal
    page.click('table.sheet tbody tr[data-row="9"]')
    assert page.evaluate(STATE)["title"].startswith("Deal 10 of 24")
    assert page.locator('table.sheet tbody tr.current').get_attribute("data-row") == "9"
    shot = tmp_path / "georgian-deal-3.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


@pytest.mark.slow
def test_a_broken_record_shows_its_problems_at_their_trick(open_page, tmp_path):
    page = open_page(str(EXAMPLES / "invalid-revoke.log"))
    assert page.locator("section.problems li.problem").count() == 2
    page.click('section.problems a.goto >> nth=0')
    state = page.evaluate(STATE)
    assert state["title"].startswith("Deal 3 of 15") and state["stage"].startswith("Trick 1 of 3")
    assert state["problems"] == ["R010"] and state["offenders"] == [0]  # Anna, seat 1
    assert state["played"][0] == ["10D"]  # the card of the revoke
    assert "does not follow the led suit" in page.locator(".board .problem-box").inner_text()
    page.screenshot(path=str(tmp_path / "invalid-revoke.png"))
    page.keyboard.press("ArrowRight")
    assert page.evaluate(STATE)["problems"] == ["R011"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(STATE)["problems"] == []
    # the sheet marks the deal
    assert page.locator("table.sheet tr.has-problem").get_attribute("data-row") == "2"


@pytest.mark.slow
def test_a_bid_against_the_hook_is_shown_with_the_bidding(open_page):
    page = open_page(str(EXAMPLES / "invalid-hook.log"))
    page.click("section.problems a.goto")
    state = page.evaluate(STATE)
    assert state["title"].startswith("Deal 7 of") and state["stage"] == "The bidding"
    assert state["problems"] == ["R021"]


@pytest.mark.slow
def test_an_auctions_calls_are_shown_in_the_bid_column(open_page):
    golden = Path(__file__).resolve().parent / "golden" / "estimation"
    page = open_page(str(golden / "low-call-full.log"))
    bids = page.locator(".board tr.seat-row td.bid").all_inner_texts()
    # Deal 1: Anna 4 S, Boris 4 S, Vera 6 C (the highest call: her bid), Gleb 4 H.
    assert bids == ["2 (call 4 ♠)", "1 (call 4 ♠)", "6 (call 6 ♣)", "3 (call 4 ♥)"]
    page.click("section.problems a.goto")
    state = page.evaluate(STATE)
    assert state["title"].startswith("Deal 2 of 18") and state["stage"] == "The bidding"
    assert state["problems"] == ["R024"] and state["offenders"] == [1]  # Boris's call of 3


@pytest.mark.slow
def test_an_archive_index_opens_each_game(open_page, tmp_path):
    archive = tmp_path / "two.log"
    archive.write_text((EXAMPLES / "odessa-full.log").read_text() + "\n"
                       + (EXAMPLES / "invalid-hook.log").read_text(), encoding="utf-8")
    page = open_page(str(archive))
    assert page.locator("table.games tbody tr").count() == 2
    assert page.locator("section.game:visible").count() == 0  # the index alone
    page.click('table.games a[href="#game-2"]')
    assert page.locator("section.game:visible").count() == 1
    assert page.locator("#game-2").is_visible()
    page.keyboard.press("ArrowDown")  # the keys drive the game shown
    title = page.locator("#game-2 .board .deal-title").inner_text()
    assert title.startswith("Deal 2 of 23")
    assert page.locator("#game-1 .board .deal-title").inner_text().startswith("Deal 1 of 15")
    page.screenshot(path=str(tmp_path / "archive.png"))


def test_a_sheet_row_click_scrolls_to_the_replay(open_page):
    page = open_page(str(EXAMPLES / "georgian-full.log"))
    row = page.locator('table.sheet tbody tr[data-row="20"]')
    row.scroll_into_view_if_needed()
    assert page.evaluate("() => document.querySelector('.board').getBoundingClientRect().bottom < 0")
    row.click()
    page.wait_for_function("() => { const r = document.querySelector('.board').getBoundingClientRect();"
                           " return r.bottom > 0 && r.top < window.innerHeight; }", timeout=3000)
    assert page.evaluate(STATE)["title"].startswith("Deal 21 of 24")


def test_the_page_fits_a_phone_of_400_px(open_page, tmp_path):
    for record in ("georgian-full.log", "odessa-full.log"):
        page = open_page(str(EXAMPLES / record))
        page.set_viewport_size({"width": 400, "height": 800})
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 400, f"{record}: the page is {wide} px wide at 400 px"
        # the hand keeps several cards a line (not one card per line)
        tops = page.evaluate("() => [...document.querySelectorAll('.board td.hand')][0] ? "
                             "[...[...document.querySelectorAll('.board td.hand')][0].querySelectorAll('.card')]"
                             ".map(c => c.getBoundingClientRect().top) : []")
        if len(tops) >= 3:
            assert len(set(round(t) for t in tops)) < len(tops)
        page.screenshot(path=str(tmp_path / f"{record}-400.png"), full_page=True)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_page_of_a_watched_game_speaks_one_language(browser, tmp_path, lang):
    """The page of a Russian game in Russian has no English word and no Latin rank; in English,
    no Cyrillic (the variant's and the file's names are what the user typed)."""
    import re

    from updown_dsl import i18n
    from updown_dsl.cli import app

    runner = make_runner()
    log, out = tmp_path / "g.log", tmp_path / "g.html"
    try:
        played = runner.invoke(app, ["play", "--variant", "georgian", "--watch", "--seed", "3", "--save", str(log),
                                     "--lang", lang])
        assert played.exit_code == 0
        viewed = runner.invoke(app, ["view", str(log), "-o", str(out), "--lang", lang])
        assert viewed.exit_code == 0, viewed.stderr
    finally:
        i18n.set_language(None)
    page = browser.new_page()
    page.goto(out.as_uri())
    texts = [page.evaluate("() => document.body.innerText")]
    for _ in range(8):  # the bidding, tricks, the scores of the first deals
        page.keyboard.press("ArrowRight")
        texts.append(page.evaluate("() => document.body.innerText"))
    page.keyboard.press("End")
    texts.append(page.evaluate("() => document.body.innerText"))
    titles = page.evaluate("() => [...document.querySelectorAll('[title]')].map(e => e.title)")
    page.close()
    for text in texts + titles:
        text = text.replace("g.log", "").replace("georgian", "").replace("Home", "").replace("End", "")
        if lang == "ru":
            assert set(re.findall(r"[A-Za-z]+", text)) == set(), text[:2000]
        else:
            assert not re.search(r"[А-Яа-яЁё]", text), text[:2000]


def test_markdown_rule_book_of_a_hostile_variant_runs_no_script(browser, tmp_path):
    """``variant explain --format md`` of a variant whose name and description hold HTML with
    script, rendered by a CommonMark renderer (raw HTML on, as CommonMark says) and opened in
    Chromium: nothing runs. The same text unescaped does run (the test can fail)."""
    from markdown_it import MarkdownIt

    from updown_dsl.cli import app

    payload = "<img src=x onerror=\"document.title='pwned'\">"
    variant = tmp_path / "evil.yaml"
    variant.write_text("extends: oh-hell\nname: \"Evil " + payload.replace('"', '\\"') + "\"\n"
                       "description: \"<script>document.title='pwned'</script> " + payload.replace('"', '\\"')
                       + "\"\n", encoding="utf-8")
    r = make_runner().invoke(app, ["variant", "explain", "--format", "md", str(variant)])
    assert r.exit_code == 0, r.stderr
    md = MarkdownIt("commonmark")  # raw HTML passes through, as CommonMark allows

    def title_of(markdown: str, name: str) -> str:
        page_file = tmp_path / name
        page_file.write_text("<!DOCTYPE html><html><head><title>book</title></head><body>"
                             + md.render(markdown) + "</body></html>", encoding="utf-8")
        page = browser.new_page()
        try:
            page.goto(page_file.as_uri())
            page.wait_for_load_state("load")
            page.wait_for_timeout(300)  # an onerror handler runs once the image fails
            return page.title()
        finally:
            page.close()

    assert title_of(r.stdout, "book.html") == "book"
    assert "Evil <img src=x onerror" in r.stdout.replace("\\", "")  # the name is shown, as text
    assert title_of("# " + payload + "\n", "raw.html") == "pwned"  # unescaped, it runs


ANALYSED = """() => {
  const board = document.querySelector('.board');
  const rows = [...board.querySelectorAll('tr.seat-row')];
  return {
    bids: rows.map(r => { const j = r.querySelector('td.bid .judged');
                          return j ? [j.firstChild && j.firstChild.nodeType === 3 ? j.firstChild.textContent : '',
                                      [...j.querySelectorAll('.chance')].map(c => c.textContent)] : null; }),
    cards: rows.map(r => { const j = r.querySelector('td.played .judged'); return j ? +j.dataset.loss : null; }),
  };
}"""


def test_the_page_shows_the_analysis_of_each_bid_and_card(browser, tmp_path):
    """``updown view --analyse``: each player's loss above the replay, each bid's mark, loss and
    trick distribution in the bidding, and each card's loss in its trick, as the analysis says."""
    from updown_dsl.cli import app
    from updown_dsl.players.analysis import analyse_game

    record = str(Path(__file__).resolve().parent / "golden" / "analyse" / "oh-hell-4.log")
    out = tmp_path / "analysed.html"
    result = make_runner().invoke(app, ["view", record, "--analyse", "-o", str(out)])
    assert result.exit_code == 0, result.output
    analysis = analyse_game(check_file(record).game)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(out.as_uri())
    assert page.locator("table.analysis-summary tbody tr").count() == 4
    first = page.locator("table.analysis-summary tbody tr").first.locator("td").nth(1).text_content()
    assert first == f"{analysis.summaries[0].loss:.1f}"
    for deal in analysis.deals:
        state = page.evaluate(ANALYSED)  # the bidding of the deal
        for d in deal.decisions:
            if d.kind.value != "bid":
                continue
            mark, chances = state["bids"][d.seat]
            assert mark.startswith(d.mark.value)
            shown = {int(c.split(":")[0]): int(c.split(":")[1].rstrip("%")) for c in chances}
            assert shown.keys() == {k for k, p in enumerate(d.tricks) if p >= 0.05}
            assert all(abs(shown[k] - 100 * d.tricks[k]) <= 0.5001 for k in shown)  # (JS rounds halves up)
        for trick in range(1, deal.cards + 1):
            page.keyboard.press("ArrowRight")
            state = page.evaluate(ANALYSED)
            judged = {d.seat: d.loss for d in deal.decisions if d.trick == trick}
            assert {s: x for s, x in enumerate(state["cards"]) if x is not None} == pytest.approx(judged, abs=1e-3)
        page.keyboard.press("ArrowRight")  # the scores
        page.keyboard.press("ArrowRight")  # the next deal's bidding
    page.screenshot(path=str(tmp_path / "analysed.png"), full_page=True)
    assert errors == []
    page.close()
