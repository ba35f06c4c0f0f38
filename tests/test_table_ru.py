"""At a Russian table everything a player reads is Russian: a watched game, its score sheet and
its check have no English word and no Latin rank (cards as В Д К Т), and the same in English
has no Cyrillic; moves are typed in either letters, a rank or suit alone when it is one card."""

from __future__ import annotations

import re
import os
from pathlib import Path

import pytest

from clikit import make_runner
from updown_dsl import i18n
from updown_dsl.cli import app

RUNNER = make_runner()
LATIN = re.compile(r"[A-Za-z]+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@pytest.fixture(autouse=True)
def _english_after():
    here = os.getcwd()
    yield
    os.chdir(here)
    i18n.set_language(None)
    i18n.set_card_letters(None)


def _watched(tmp_path: Path, variant: str, lang: str, seed: int) -> tuple[str, Path]:
    os.chdir(tmp_path)  # (a short, relative file name: a long path would wrap at 80 columns)
    log = Path(f"{variant}-{lang}.log")
    shown = RUNNER.invoke(app, ["play", "--variant", variant, "--watch", "--seed", str(seed), "--save", str(log),
                                "--lang", lang])
    assert shown.exit_code == 0, shown.stdout + shown.stderr
    return shown.stdout, log


def _after(lang: str, *args: str) -> str:
    result = RUNNER.invoke(app, [*args, "--lang", lang])  # --lang after the command
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seed"), [("georgian", 3), ("oh-hell", 5), ("russian", 11)])
def test_a_watched_russian_game_its_sheet_and_its_check_have_no_english(tmp_path: Path, variant: str,
                                                                          seed: int) -> None:
    screen, log = _watched(tmp_path, variant, "ru", seed)
    sheet = _after("ru", "sheet", str(log))
    check = _after("ru", "check", str(log))
    for text in (screen, sheet, check):
        # the variant's name and the file's name are what the user typed
        words = set(LATIN.findall(text.replace(str(log), "").replace(variant, "")))
        assert words == set(), f"English in: {sorted(words)[:20]}"
    assert "Т♠" in screen or "Т♥" in screen or "Т♦" in screen or "Т♣" in screen  # an ace, as a Russian table writes it
    assert CYRILLIC.search(screen) and "Анна" in screen and "Козырь:" in screen and "заказы:" in screen


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seed"), [("georgian", 3), ("oh-hell", 5)])
def test_the_same_game_in_english_has_no_cyrillic(tmp_path: Path, variant: str, seed: int) -> None:
    screen, log = _watched(tmp_path, variant, "en", seed)
    for text in (screen, _after("en", "sheet", str(log)), _after("en", "check", str(log))):
        assert not CYRILLIC.search(text), CYRILLIC.search(text)
    assert "Anna" in screen and "Trump:" in screen and "bids:" in screen


@pytest.mark.slow
def test_every_command_takes_lang_after_its_name(tmp_path: Path) -> None:
    screen, log = _watched(tmp_path, "oh-hell", "en", 5)
    for args in (["variants"], ["score", "oh-hell", "--deal", "1", "--bid", "1", "--taken", "1"],
                 ["check", str(log)], ["sheet", str(log)], ["variant", "show", "oh-hell"],
                 ["variant", "schema"], ["variant", "validate", "oh-hell"],
                 ["convert", str(log)]):
        result = RUNNER.invoke(app, [*args, "--lang", "ru"])
        assert result.exit_code in (0, 1), (args, result.stdout + result.stderr)


@pytest.mark.slow
def test_cards_ru_shows_russian_letters_on_an_english_screen(tmp_path: Path) -> None:
    shown = RUNNER.invoke(app, ["play", "--variant", "oh-hell", "--watch", "--seed", "5", "--cards", "ru",
                                "--lang", "en"])
    assert shown.exit_code == 0
    assert "Trump:" in shown.stdout and not re.search(r"[JQKA][♠♥♦♣]", shown.stdout)
    assert re.search(r"[ВДКТ][♠♥♦♣]", shown.stdout)


def _joker_lead(lang: str):
    """A georgian game where seat 1, at the keyboard, leads with a joker in hand."""
    from updown_dsl.actions import Play
    from updown_dsl.engine import Phase
    from updown_dsl.lang.loader import load_variant
    from updown_dsl.players.session import Session

    i18n.set_language(lang)
    v = load_variant("georgian")
    for seed in range(1, 60):
        s = Session.start(v, 4, humans={0}, seed=seed)
        g = s.game
        while not g.is_over:
            if g.to_act == 0 and g.phase is Phase.PLAY and not g.trick and any(
                    isinstance(a, Play) and a.card.is_joker for a in g.legal_actions()):
                return s
            s.apply(s.bot_action(g.to_act))
    raise AssertionError("no joker lead found")  # pragma: no cover


def test_a_rank_or_a_suit_alone_plays_the_one_card_it_means() -> None:
    from collections import Counter

    from updown_dsl.actions import Play

    s = _joker_lead("en")
    cards = [a.card for a in s.game.legal_actions() if isinstance(a, Play) and not a.card.is_joker]
    ranks, suits = Counter(c.rank for c in cards), Counter(c.suit for c in cards)
    for c in dict.fromkeys(cards):
        reply = s.interpret(c.rank.value)
        if ranks[c.rank] == 1:
            assert reply.kind == "action" and reply.action == Play(c)
        else:
            assert reply.kind == "invalid" and "which card?" in reply.message and c.pretty() in reply.message
        reply = s.interpret(c.suit.symbol)
        if suits[c.suit] == 1:
            assert reply.kind == "action" and reply.action == Play(c)


def test_the_joker_is_typed_as_shown_and_declared_in_russian() -> None:
    from updown_dsl.actions import Play

    s = _joker_lead("ru")
    for typed in ("🃏", "Дж", "JK"):
        reply = s.interpret(typed)
        assert reply.kind == "ask" and "хочу" in reply.message and "demand" not in reply.message
    reply = s.interpret("Дж хочу ч")
    assert reply.kind == "action" and isinstance(reply.action, Play) and str(reply.action) == "JK demand H"
    assert s.interpret("ч", pending="JK demand").action == reply.action
    wrong = s.interpret("Дж младший")
    assert wrong.kind == "invalid" and "Дж младший" in wrong.message and "Дж хочу п|ч|б|т" in wrong.message
    assert not LATIN.search(wrong.message)


def test_a_single_legal_card_plays_itself_and_says_so(tmp_path: Path) -> None:
    played = RUNNER.invoke(app, ["play", "--variant", "oh-hell", "-n", "3", "--seed", "5", "--autoplay"],
                           input="1\n")
    assert played.exit_code == 0
    assert "the only legal card, played" in played.stdout and "Trick 1: You" in played.stdout
    asked = RUNNER.invoke(app, ["play", "--variant", "oh-hell", "-n", "3", "--seed", "5", "--no-autoplay"],
                          input="1\n")
    assert "the only legal card" not in asked.stdout
    assert "Table: empty. You lead." in asked.stdout and "Trick 1" not in asked.stdout  # asked, input ended
