"""``updown keep`` and the library under it (:mod:`updown_dsl.players.keeper`): entries checked by
the variant's rules as they are made, scores by its formulas, corrections, the saved sheet."""

from __future__ import annotations

import os
import random
import select
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import updown_dsl as ud
from updown_dsl.cards import Suit
from updown_dsl.cli import app
from updown_dsl.lang.loader import bundled_names
from updown_dsl.players.keeper import Keeper, KeepError, KeptDeal, Need
from updown_dsl.records.checker import check_text
from updown_dsl.records.transcript import format_transcript, parse_transcript

from clikit import make_runner

NAMES = ("Anna", "Boris", "Vera", "Gleb")
ROOT = Path(__file__).resolve().parent.parent


def keeper(variant: str = "odessa", players: int | None = None) -> Keeper:
    v = ud.load_variant(variant)
    n = players or (4 if v.min_players <= 4 <= v.max_players else v.default_players)
    return Keeper(v, NAMES[:n] if n <= 4 else tuple(f"P{i}" for i in range(1, n + 1)), label=variant)


def random_deal(k: Keeper, rng: random.Random, lines: list[str] | None = None) -> None:
    """Give the deal in hand at random (legal entries), writing what a table would type."""
    start = len(k.deals)
    while len(k.deals) == start and not k.is_over:
        step = k.step()
        if step.need is Need.TRUMP:
            suit = rng.choice([*Suit, None]) if step.no_trump else rng.choice(list(Suit))
            k.give_trump(suit)
            if lines is not None:
                lines.append("none" if suit is None else suit.value)
        elif step.need is Need.CALL:
            call = rng.choice(k.calls())
            k.give_call(call)
            if lines is not None:
                lines.append("dash" if not call.tricks else
                             f"{call.tricks} {'none' if call.suit is None else call.suit.value}")
        elif step.need is Need.BID:
            bid = rng.choice(step.choices)
            k.give_bid(bid)
            if lines is not None:
                lines.append(str(bid))
        else:
            taken = [0] * k.players
            for _ in range(step.deal.cards):
                taken[rng.randrange(k.players)] += 1
            k.give_tricks(taken)
            if lines is not None:
                lines.append(" ".join(str(taken[s]) for s in step.order))


def random_game(variant: str, seed: int, players: int | None = None) -> Keeper:
    k = keeper(variant, players)
    rng = random.Random(seed)
    while not k.is_over:
        random_deal(k, rng)
    return k


# ---------------------------------------------------------------------------- the library


def test_odessa_first_deal_scored_by_the_formulas() -> None:
    k = keeper()
    step = k.step()
    assert (step.need, step.deal.number, step.deal.cards, step.dealer, step.order) == (Need.TRUMP, 1, 1, 3,
                                                                                       (0, 1, 2, 3))
    k.give_trump(Suit.HEARTS)
    k.give_bids([1, 0, 0])
    step = k.step()
    assert step.need is Need.BID and step.seat == 3 and step.forbidden == 0 and step.choices == (1,)
    with pytest.raises(KeepError) as exc:
        k.give_bid(0)
    assert exc.value.diagnostic.code == "R021"
    k.give_bid(1)
    with pytest.raises(KeepError) as exc:
        k.give_tricks([1, 1, 0, 0])
    assert exc.value.diagnostic.code == "R053"
    k.give_tricks([1, 0, 0, 0])
    assert k.totals == (10, 5, 5, -10)
    assert [s.points for s in k.game.results[0].seats] == [10, 5, 5, -10]


def test_the_countdown_refuses_more_tricks_than_the_deal_has() -> None:
    k = keeper()
    k.give_trump(Suit.SPADES)
    k.give_bids([1, 1, 1])
    k.give_bid(1)
    assert k.tricks_left([1]) == 0
    with pytest.raises(KeepError) as exc:
        k.check_took([1], [1])
    assert exc.value.diagnostic.code == "R053" and exc.value.diagnostic.hint == "0 tricks are left to give"
    k.check_took([0], [1])


def test_a_round_of_bids_is_all_or_nothing() -> None:
    k = keeper()
    k.give_trump(None)
    with pytest.raises(KeepError):
        k.give_bids([1, 0, 0, 0])  # the last bid is the forbidden one
    assert k.step().seat == 0 and k.current.bids == (None,) * 4


def test_undo_takes_back_the_last_entry() -> None:
    k = keeper()
    k.give_trump(Suit.CLUBS)
    k.give_bid(1)
    assert k.undo() and k.step().seat == 0
    assert k.undo() and k.step().need is Need.TRUMP
    assert not k.undo()


@pytest.mark.parametrize("variant", ["georgian", "georgian-nines", "odessa", "estimation", "odessa-two-blind", "russian",
                                     "up-and-down-free-trump", "oh-hell"])
def test_a_kept_game_checks_clean_and_resumes_to_the_same_record(variant: str) -> None:
    k = random_game(variant, 7)
    text = format_transcript(k.transcript())
    report = check_text(text)
    assert report.readable and not report.diagnostics, [str(d) for d in report.diagnostics]
    assert report.finished
    t, _ = parse_transcript(text)
    assert t is not None
    again = Keeper.from_transcript(t, ud.load_variant(variant))
    assert format_transcript(again.transcript()) == text and again.totals == k.totals


def test_a_deal_in_hand_is_saved_and_resumed() -> None:
    k = keeper("georgian")
    random_deal(k, random.Random(1))
    k.give_trump(Suit.DIAMONDS)
    k.give_bid(0)  # Boris, eldest in deal 2
    text = format_transcript(k.transcript())
    assert text.splitlines()[-1] == "deal 2 cards 2 dealer Anna trump D | - | 0 | - | -"
    t, _ = parse_transcript(text)
    again = Keeper.from_transcript(t, ud.load_variant("georgian"))  # type: ignore[arg-type]
    assert again.current.bids == k.current.bids and again.step().seat == k.step().seat


# ---------------------------------------------------------------------------- corrections


def test_an_edit_rescores_the_tail_and_is_kept_in_the_record() -> None:
    k = random_game("odessa", 3)
    first = k.deals[1]
    took = tuple(reversed(first.took or ()))
    made = k.edit(2, took=took, when="2024-05-18T21:03")
    assert made and all(c.deal == 2 and c.field == "took" and c.at == 15 for c in made)
    clean = keeper("odessa")
    for d in [*k.deals]:
        clean._enter(d)  # noqa: SLF001 - the corrected sheet, entered cleanly
    assert clean.totals == k.totals
    text = format_transcript(k.transcript())
    assert "correction Anna took" in text or "correction" in text
    report = check_text(text)
    assert not report.diagnostics, [str(d) for d in report.diagnostics]


def test_an_edit_that_breaks_a_rule_is_refused_and_changes_nothing() -> None:
    k = random_game("odessa", 4)
    before = format_transcript(k.transcript())
    d = k.deals[0]
    with pytest.raises(KeepError) as exc:
        k.edit(1, took=tuple(t + 1 for t in d.took or ()))
    assert exc.value.diagnostic.code == "R053" and "deal 1" in exc.value.diagnostic.message
    assert format_transcript(k.transcript()) == before


def test_a_correction_that_does_not_match_its_row_is_r056() -> None:
    k = random_game("odessa", 5)
    d = k.deals[2]
    k.edit(3, took=tuple(reversed(d.took or ())))
    text = format_transcript(k.transcript())
    line = next(x for x in text.splitlines() if x.startswith("correction"))
    words = line.split()
    words[5] = str(int(words[5]) + 7)  # the number the correction gives, unlike the row's
    broken = text.replace(line, " ".join(words))
    codes = [d.code for d in check_text(broken).diagnostics]
    assert codes == ["R056"]


@pytest.mark.parametrize("variant", bundled_names())
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.tuples(st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32)))
def test_editing_deal_k_at_deal_n_is_entering_the_corrected_sheet(variant: str,
                                                                   data: tuple[int, int, int, int]) -> None:
    """Keep a random sheet to deal n, correct deal k (< n) at random and keep on; the totals are
    those of the corrected sheet entered cleanly, deal after deal."""
    seed, n, k_, seed2 = data
    rng = random.Random(seed)
    kp = keeper(variant)
    while not kp.is_over and len(kp.deals) < n:
        random_deal(kp, rng)
    if len(kp.deals) < 2:
        return
    number = 1 + k_ % (len(kp.deals) - 1)
    old = kp.deals[number - 1]
    other = random.Random(seed2)
    took = [0] * kp.players
    for _ in range(kp.game.results[number - 1].deal.cards):
        took[other.randrange(kp.players)] += 1
    try:
        kp.edit(number, took=took)
    except KeepError:
        return  # a correction the rules refuse (the game would have ended earlier): nothing changed
    assert kp.deals[number - 1] == KeptDeal(old.trump, old.trump_given, old.calls, old.bids, tuple(took))
    while not kp.is_over:
        random_deal(kp, rng)
    clean = keeper(variant)
    for d in kp.deals:
        clean._enter(d)  # noqa: SLF001
    assert clean.totals == kp.totals
    report = check_text(format_transcript(kp.transcript()))
    assert not [d for d in report.diagnostics if d.severity == "error"]


# ---------------------------------------------------------------------------- the command


def typed_game(variant: str, seed: int) -> tuple[list[str], Keeper]:
    """What a table types to keep a random game of ``variant``, and the game it keeps."""
    k = keeper(variant)
    rng = random.Random(seed)
    lines: list[str] = []
    while not k.is_over:
        random_deal(k, rng, lines)
    return lines, k


@pytest.mark.parametrize("variant, deals", [("odessa", 15), ("georgian", 24), ("estimation", 18), ("russian", 18),
                                           ("odessa-two-blind", 18), ("georgian-nines", 16)])
def test_keep_a_whole_game_with_the_cli(tmp_path: Path, variant: str, deals: int) -> None:
    lines, k = typed_game(variant, 11)
    save = tmp_path / "game.log"
    result = make_runner().invoke(app, ["keep", "--variant", variant, "--players", " ".join(NAMES),
                                        "--save", str(save)], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "The game is over" in result.output
    text = save.read_text(encoding="utf-8")
    assert len([x for x in text.splitlines() if x.startswith("deal ")]) == deals
    assert text.split("\nwriter:")[1] == format_transcript(k.transcript()).split("\nwriter:")[1]
    check = make_runner().invoke(app, ["check", str(save)])
    assert check.exit_code == 0, check.output


def test_keep_refuses_a_wrong_trick_count_on_the_spot_naming_the_rule(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    typed = ["h", "1 0 0", "0", "1", "1 1"]  # Gleb may not bid 0; then one trick given twice
    result = make_runner().invoke(app, ["keep", "-v", "odessa", "-p", "Anna Boris Vera Gleb", "--save", str(save)],
                                  input="\n".join(typed) + "\n")
    assert result.exit_code == 0
    assert "Gleb bids (0\u0336 1; not 0)>" in result.output
    assert "error[R021] the last bidder may not bid 0" in result.output
    assert "error[R053] tricks taken 1 + 1 = 2 do not add up to the 1 cards of deal 1" in result.output
    assert save.read_text().splitlines()[-1] == "deal 1 cards 1 dealer Gleb trump H | 1 | 0 | 0 | 1"


def test_keep_resume_and_edit(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    runner = make_runner()
    first = runner.invoke(app, ["keep", "-v", "odessa", "-p", "Anna,Boris,Vera,Gleb", "--save", str(save)],
                          input="h\n1 1 0 1\n1 0 0 0\nquit\n")
    assert first.exit_code == 0 and "Stopped after deal 1" in first.output
    again = runner.invoke(app, ["keep", "--resume", str(save)],
                          input="d\n1 1 0 1\n1 1 0 0\nedit 1 took 0 1 0 0\nsheet\n")
    assert again.exit_code == 0, again.output
    assert "Deal 1: Anna's tricks taken 1 → 0" in again.output
    assert " 1/0*" in again.output  # the corrected number marked on the sheet
    text = save.read_text()
    assert "correction Anna took 1 to 0 at deal 3" in text
    assert runner.invoke(app, ["check", str(save)]).exit_code == 0


def test_keep_usage_errors(tmp_path: Path) -> None:
    runner = make_runner()
    assert runner.invoke(app, ["keep", "-v", "odessa"]).exit_code == 2
    assert runner.invoke(app, ["keep", "-v", "odessa", "-p", "Anna"]).exit_code == 2
    save = tmp_path / "x.log"
    save.write_text("keep me")
    r = runner.invoke(app, ["keep", "-v", "odessa", "-p", "Anna Boris Vera", "--save", str(save)])
    assert r.exit_code == 2 and save.read_text() == "keep me"
    bad = tmp_path / "bad.log"
    bad.write_text("not a record\n")
    assert runner.invoke(app, ["keep", "--resume", str(bad)]).exit_code == 3


def test_keep_in_russian(tmp_path: Path) -> None:
    from updown_dsl import i18n

    try:
        r = make_runner().invoke(app, ["keep", "-v", "odessa", "-p", "Anna Boris Vera Gleb", "--lang", "ru",
                                       "--save", str(tmp_path / "g.log")], input="ч\n1 0 0\n0\n")
    finally:
        i18n.set_language(None)  # the language is the process's: English again for the tests after
    assert r.exit_code == 0
    assert "Сдача 1 из 15" in r.output and "Порядок заказов: Anna Boris Vera Gleb" in r.output
    assert "Gleb заказывает (0\u0336 1; не 0)>" in r.output
    assert "error[R021]" in r.output


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
def test_keep_in_a_pseudo_terminal(tmp_path: Path) -> None:
    """The keeper at a real terminal: prompts, the struck-out bid, the sheet saved as it goes."""
    import pty  # noqa: F401 - POSIX only

    save = tmp_path / "pty.log"
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "updown_dsl", "keep", "-v", "odessa", "-p",
                             "Anna Boris Vera Gleb", "--save", str(save)],
                            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    out = b""

    def read_until(marker: bytes) -> None:
        nonlocal out
        while marker not in out:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, out.decode(errors="replace")
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk

    try:
        for prompt, answer in ((b"Trump", b"s"), (b"Anna bids", b"1 0 0"), (b"Gleb bids", b"1"),
                               (b"Anna took", b"0 1 0 0"), (b"Trump", b"quit")):
            read_until(prompt)
            os.write(master, answer + b"\n")
        read_until(b"--resume")
    finally:
        proc.wait(timeout=60)
        os.close(master)
    text = out.decode(errors="replace")
    assert "0\u0336" in text and "Totals: Anna -10" in text
    assert proc.returncode == 0
    assert "deal 1 cards 1 dealer Gleb trump S | 1 0 -10 -10" in save.read_text()


def test_georgian_nines_asks_eldest_for_trump_in_every_deal() -> None:
    k = keeper("georgian-nines")
    assert len(k.game.deals) == 16 and {d.cards for d in k.game.deals} == {9}
    rng = random.Random(4)
    for number in range(1, 17):
        step = k.step()
        assert step.need is Need.TRUMP and step.trump_rule == "chosen" and step.seat == step.order[0]
        random_deal(k, rng)
    assert k.is_over and not check_text(format_transcript(k.transcript())).diagnostics


def test_the_kept_file_is_appended_or_replaced_whole_and_locked(tmp_path: Path) -> None:
    from updown_dsl.players.keptfile import KeptFile
    from updown_dsl.players.savefile import LOCKING, InUseError

    path = tmp_path / "k.log"
    f = KeptFile.create(path, "variant: odessa\n")
    f.save("variant: odessa\nplayers: A B\n")  # only adds: appended
    f.save("variant: odessa\nplayers: A B C\n")  # changes a line: replaced whole
    assert path.read_text() == "variant: odessa\nplayers: A B C\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.log"]  # no hidden file left
    if LOCKING != "none":
        with pytest.raises(InUseError):
            KeptFile.open(path)  # another keeper of the same sheet is refused
    f.close()
    again = KeptFile.open(path)
    assert again.text == "variant: odessa\nplayers: A B C\n"
    again.close()
