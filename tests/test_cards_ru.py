"""Russian and Ukrainian card letters and names: read everywhere a card is read, written by
``--cards ru``, and a record written with them checks clean and converts back without loss."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl.actions import Play
from updown_dsl.cards import Card, CardError, Suit, card_text, format_cards, parse_cards, standard_pack
from updown_dsl.players.replies import interpret
from updown_dsl.records.checker import check_text
from updown_dsl.records.transcript import format_transcript, parse_transcript

from clikit import make_runner

ROOT = Path(__file__).resolve().parent.parent
RU_CARD = re.compile(r" (10|[2-9]|[ВДКТ])[пчбт]\b")
EXAMPLES = sorted(p for p in (ROOT / "docs/examples").glob("*.log") if not p.name.startswith("invalid"))


@pytest.mark.parametrize("text, card", [
    ("Тп", "AS"), ("тп", "AS"), ("ТТ", "AC"), ("10ч", "10H"), ("Дб", "QD"), ("Вт", "JC"), ("Кч", "KH"),
    ("В♠", "JS"), ("Т♥", "AH"), ("6п", "6S"), ("Дж", "JK"), ("дж2", "JK2"), ("Джокер", "JK"),
    ("дама пик", "QS"), ("Туз червей", "AH"), ("10 бубен", "10D"), ("король треф", "KC"),
    ("семёрка пик", "7S"), ("шестерка крестей", "6C"), ("валет бубны", "JD"), ("7 пик", "7S"),
    # Ukrainian: the same letters, and the names (піки, вини; чирва; дзвінка; хрести, жир)
    ("шістка вин", "6S"), ("краля дзвінка", "QD"), ("король чирва", "KH"), ("туз пік", "AS"),
    ("нижник жир", "JC"), ("дев'ятка хрестів", "9C"), ("сімка треф", "7C"), ("цабе черви", "AH"),
])
def test_russian_and_ukrainian_cards_are_read(text: str, card: str) -> None:
    assert Card.parse(text) is Card.parse(card)


@pytest.mark.parametrize("text, suit", [("п", "S"), ("Ч", "H"), ("б", "D"), ("т", "C"), ("пики", "S"),
                                        ("червей", "H"), ("бубны", "D"), ("трефы", "C"), ("вини", "S"),
                                        ("чирва", "H"), ("дзвінки", "D"), ("хрести", "C")])
def test_suits_in_russian_and_ukrainian(text: str, suit: str) -> None:
    assert Suit.parse(text) is Suit(suit)


@pytest.mark.parametrize("text", ["Шп", "дама", "пик", "Т", "дама пикачу пик", "11ч", "Тх"])
def test_what_is_not_a_card_is_still_c001(text: str) -> None:
    with pytest.raises(CardError) as err:
        Card.parse(text)
    assert err.value.diagnostics[0].code == "C001"


def test_russian_notation_writes_and_reads_back_every_card() -> None:
    pack = standard_pack(52) + (Card(None, None, 1), Card(None, None, 2))
    written = format_cards(pack, "ru")
    assert written.split()[:4] == ["2п", "3п", "4п", "5п"] and "Тб" in written and written.endswith("Дж Дж2")
    assert parse_cards(written) == pack
    assert [card_text(c) for c in pack] == [str(c) for c in pack]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_a_record_in_russian_letters_checks_alike_and_converts_back(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    t, diags = parse_transcript(text, str(path))
    assert t is not None
    ru = format_transcript(t, "ru")
    back, _ = parse_transcript(ru, str(path))
    assert back is not None and format_transcript(back) == format_transcript(t)
    assert format_transcript(back, "ru") == ru
    english, russian = check_text(text, str(path)), check_text(ru, str(path))
    assert [(d.code, d.line) for d in russian.diagnostics] == [(d.code, d.line) for d in english.diagnostics]
    if "full" in path.name or "plays" in path.name:
        assert russian.clean and RU_CARD.search(ru)


def _play_phase_game(seed: int = 3) -> ud.Game:
    game = ud.Game(ud.load_variant("russian"), 4, seed=seed)
    rng = random.Random(seed)
    while game.phase is not ud.Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    return game


_RANK_WORDS = {"J": "валет", "Q": "дама", "K": "король", "A": "туз", "6": "шестерка", "7": "семерка",
               "8": "восьмерка", "9": "девятка", "10": "десятка"}
_SUIT_WORDS = {"S": "пик", "H": "червей", "D": "бубен", "C": "треф"}


def test_the_prompt_takes_a_card_in_words_and_letters() -> None:
    game = _play_phase_game()
    play = next(a for a in game.legal_actions() if isinstance(a, Play) and a.declare is None)
    card = play.card
    words = f"{_RANK_WORDS[card.rank.value]} {_SUIT_WORDS[card.suit.value]}"
    for typed in (words, "play " + words, card_text(card, "ru"), card.rank.value + card.suit.symbol):
        reply = interpret(game, typed)
        assert reply.kind in ("action", "ask"), (typed, reply)
        if reply.kind == "action":
            assert reply.action.card is card


def test_russian_words_at_the_bid_prompt() -> None:
    game = ud.Game(ud.load_variant("odessa"), 4, seed=1)
    reply = interpret(game, "пас")
    assert reply.kind == "action" and reply.action == ud.Bid(0)
    assert interpret(game, "заказ 1").action == ud.Bid(1)


def test_cli_convert_writes_either_notation(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    runner = make_runner()
    src = ROOT / "docs/examples/odessa-full.log"
    r = runner.invoke(app, ["convert", str(src), "--to", "log", "--cards", "ru"])
    assert r.exit_code == 0 and RU_CARD.search(r.stdout) and not re.search(r" (10|[2-9]|[JQKA])[SHDC]\b", r.stdout)
    ru = tmp_path / "ru.log"
    ru.write_text(r.stdout, encoding="utf-8")
    assert runner.invoke(app, ["check", str(ru)]).exit_code == 0
    back = runner.invoke(app, ["convert", str(ru), "--to", "log"])
    assert back.stdout == runner.invoke(app, ["convert", str(src), "--to", "log"]).stdout
    assert runner.invoke(app, ["convert", str(src), "--to", "log", "--cards", "de"]).exit_code == 2


@pytest.mark.slow
def test_play_saves_in_russian_letters(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    save = tmp_path / "game.log"
    r = make_runner().invoke(app, ["play", "--variant", "odessa", "--watch", "--seed", "2", "--save", str(save),
                                   "--cards", "ru"])
    assert r.exit_code == 0, r.output
    text = save.read_text(encoding="utf-8")
    assert RU_CARD.search(text) and not re.search(r"(hand|play) \S+ (10|[2-9]|[JQKA])[SHDC]\b", text)
    assert check_text(text, str(save)).clean
    t, _ = parse_transcript(text)
    assert t is not None and format_transcript(t, "ru") == text
