"""``updown play``: the session library (updown_dsl.players.session), the screens (updown_dsl.cli.screen)
and the command, driven by piped input.

The input a human would type is computed by playing the same seeded game through the
library (the bots and the shuffles depend only on the seed and the actions taken), so the
command line must reach exactly the same states.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import pytest
from rich.console import Console

import updown_dsl as ud
from clikit import make_runner
from updown_dsl.actions import Bid, ChooseTrump, Play
from updown_dsl.cards import Card
from updown_dsl.records.checker import check_file, check_text
from updown_dsl.engine import Phase
from updown_dsl.records.record import game_transcript
from updown_dsl.cli.screen import seat_screen, sheet_table
from updown_dsl.players.session import Reply, ResumeError, Session, action_text, seat_names
from updown_dsl.records.transcript import format_transcript, parse_transcript

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"

SHORT = """\
name: short
extends: odessa
schedule:
  - {cards: 1}
  - {cards: 2}
  - {cards: 2, kind: blind}
"""
NINE = """\
name: nine
extends: georgian
players: {min: 4, max: 4, default: 4}
schedule:
  - {cards: 9}
  - {cards: 1}
"""
HIDDEN = """\
name: hidden-two
extends: russian
schedule:
  - {cards: 2, kind: hidden}
  - {cards: 1}
"""




RUNNER = make_runner()


def play(*args: str, input: str = ""):
    from updown_dsl.cli import app

    result = RUNNER.invoke(app, ["play", *args], input=input, env={"COLUMNS": "100"})
    assert "Traceback" not in result.stdout
    assert "Traceback" not in result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def variant_file(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def first_legal(session: Session) -> object:
    return session.game.legal_actions()[0]


class Script:
    """Plays the human seats with ``policy`` and keeps what was typed; stops (end of
    input) when ``stop`` says so."""

    def __init__(self, policy: Callable[[Session], object] = first_legal,
                 stop: Callable[[Session], bool] | None = None) -> None:
        self.policy = policy
        self.stop = stop
        self.lines: list[str] = []
        self.turns = 0
        self.steps: list[object] = []

    def turn(self, session: Session, seat: int) -> None:
        self.turns += 1

    def read(self, session: Session, seat: int, prompt: str) -> str | None:
        if self.stop is not None and self.stop(session):
            return None
        text = action_text(self.policy(session))  # type: ignore[arg-type]
        self.lines.append(text)
        return text

    def reply(self, session: Session, seat: int, reply: Reply) -> None:
        raise AssertionError(f"a legal action was refused: {reply}")

    def step(self, session: Session, step: object) -> None:
        self.steps.append(step)


class Lines:
    """Types the given lines, then ends the input; keeps the replies."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.replies: list[Reply] = []

    def turn(self, session: Session, seat: int) -> None:
        pass

    def read(self, session: Session, seat: int, prompt: str) -> str | None:
        return self.lines.pop(0) if self.lines else None

    def reply(self, session: Session, seat: int, reply: Reply) -> None:
        self.replies.append(reply)

    def step(self, session: Session, step: object) -> None:
        pass


def scripted(variant: ud.Variant, seed: int, *, seat: int = 0, players: int | None = None,
             stop: Callable[[Session], bool] | None = None,
             policy: Callable[[Session], object] = first_legal) -> tuple[Session, Script, str]:
    """Play the game through the library: the session, the script and the record."""
    from io import StringIO

    buf = StringIO()
    buf.close = lambda: None  # type: ignore[method-assign]
    session = Session.start(variant, players, humans={seat}, seed=seed, save=buf,
                            variant_label=variant.path)
    script = Script(policy, stop)
    session.run(script)
    return session, script, buf.getvalue()


def render(renderable: object) -> str:
    console = Console(record=True, width=120, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def body(text: str) -> list[str]:
    """The lines of a record after its header."""
    lines = text.splitlines()
    return lines[lines.index(next(x for x in lines if x.startswith("deal "))):]


# --------------------------------------------------------------------------- the library


def test_library_game_writes_the_record_as_it_goes(tmp_path: Path) -> None:
    v = ud.load_variant(str(variant_file(tmp_path, SHORT)))
    session, script, text = scripted(v, 5)
    assert session.over and script.turns >= 5
    assert format_transcript(session.transcript()) == text
    # The same as the canonical record of the game, apart from the headers play adds.
    plain = format_transcript(game_transcript(session.game, session.names, level="full",
                                              variant=v.path))
    assert body(plain) == body(text)
    t, _ = parse_transcript(text)
    assert t is not None
    assert t.header("seed") == "5" and t.header("_human") == "You" and t.header("_bot") == "heuristic"
    report = check_text(text, variant_path=[tmp_path])  # a record without a file has no folder of its own
    assert report.clean and report.finished, [str(d) for d in report.diagnostics]
    assert report.game is not None and report.game.totals == session.game.totals


def test_every_action_is_on_file_when_it_is_taken(tmp_path: Path) -> None:
    v = ud.load_variant(str(variant_file(tmp_path, SHORT)))
    path = tmp_path / "g.log"
    session = Session.start(v, humans=(), seed=2, save=path, variant_label=v.path)
    while not session.over:
        session.apply(session.bot_action())
        text = path.read_text(encoding="utf-8")  # flushed: readable now, and valid
        report = check_text(text, str(path))
        assert report.clean, [str(d) for d in report.diagnostics]
        assert report.finished == session.over
    session.close()


def test_seat_names() -> None:
    assert seat_names(4, {0}) == ("You", "Anna", "Boris", "Vera")
    assert seat_names(4, {2}, ["Masha"]) == ("Anna", "Boris", "Masha", "Vera")
    assert seat_names(3, {0}, ["Ann", "Bob"]) == ("Ann", "Bob", "Anna")
    assert seat_names(3, ()) == ("Anna", "Boris", "Vera")
    with pytest.raises(ValueError):
        seat_names(2, {0}, ["a", "b", "c"])
    with pytest.raises(ValueError):
        seat_names(2, {0}, ["deal", "x"])
    with pytest.raises(ValueError):
        seat_names(2, {0}, ["Ann", "ann"])


def test_interpret_bids_and_questions() -> None:
    game = ud.Game(ud.load_variant("odessa"), 4, auto_deal=False)
    s = Session(game, seat_names(4, {0}), humans={0}, seed=1)
    s.deal_if_needed()
    assert s.game.phase is Phase.BID and s.to_act == 0
    assert s.interpret("1") == Reply("action", Bid(1))
    assert s.interpret("bid 0").action == Bid(0)
    assert s.interpret("pass").action == Bid(0)
    r = s.interpret("99")
    assert r.kind == "invalid" and r.code == "R020" and "out of range" in r.message
    r = s.interpret("AS")
    assert r.kind == "invalid" and "your bid" in r.message
    assert s.interpret("XX").kind == "invalid"
    assert s.interpret("?").kind == "help" and s.interpret("?").options == ("0", "1")
    assert s.interpret("help").kind == "help"
    assert s.interpret("quit").kind == "quit"
    assert s.interpret("sheet") == Reply("show", message="sheet")
    assert s.interpret("").kind == "invalid"
    assert s.prompt() == "your bid (0-1)"


def _joker_state(variant: str, card: str, lead: bool) -> tuple[Session, list[str]]:
    """A game stopped where the human seat may play ``card`` (leading or following)."""
    v = ud.load_variant(variant)
    c = Card.parse(card)

    def there(s: Session) -> bool:
        g = s.game
        return g.phase is Phase.PLAY and (not g.trick) == lead and any(
            isinstance(a, Play) and a.card == c for a in g.legal_actions())

    for seed in range(1, 60):
        session, script, _ = scripted(v, seed, stop=there)
        if not session.over:
            return session, script.lines
    raise AssertionError(f"no game found where seat 1 can play {card}")


def test_declarations_are_asked_for() -> None:
    s, _ = _joker_state("odessa", "6S", lead=False)
    r = s.interpret("6S")
    assert r.kind == "ask" and r.message == "6S: high or low?" and r.pending == "6S"
    assert s.prompt(r.pending) == "6S: high or low?"
    assert s.interpret("JK").message == "6S: high or low?"  # JK names the variant's joker
    assert s.interpret("low", r.pending).action == Play.parse("6S low")
    again = s.interpret("demand", r.pending)
    assert again.kind == "invalid" and again.pending == "6S" and "high or low" in again.message
    assert s.interpret("6s high").action == Play.parse("6S high")
    plain = s.interpret("6S plain")
    assert plain.kind == "invalid" and plain.code == "R015"

    s, _ = _joker_state("georgian", "JK", lead=True)
    r = s.interpret("JK")
    assert r.kind == "ask" and "demand or takes" in r.message
    r = s.interpret("demand", r.pending)
    assert r.kind == "ask" and r.message == "JK demand: which suit? S, H, D, C"
    assert s.interpret("♥", r.pending).action == Play.parse("JK demand H")
    assert s.interpret("jk takes s").action == Play.parse("JK takes S")

    s, _ = _joker_state("russian", "7S", lead=True)
    r = s.interpret("7S")
    assert r.kind == "ask" and r.message == "7S: plain or highest?"
    assert s.interpret("plain", r.pending).action == Play.parse("7S")
    assert s.interpret("highest", r.pending).action == Play.parse("7S highest")


def test_trump_is_named_by_typing_a_suit(tmp_path: Path) -> None:
    v = ud.load_variant(str(variant_file(tmp_path, NINE)))
    session = Session.start(v, humans={0}, seed=4)
    g = session.game
    assert g.phase is Phase.TRUMP and g.to_act == 0  # eldest names trump after 3 cards
    view = session.view(0)
    assert len(view.hand) == 3
    screen = render(seat_screen(view, session.names))
    assert "you name it (you have seen 3 of your 9 cards)" in screen
    assert session.interpret("H").action == ChooseTrump(ud.Suit.HEARTS)
    assert session.interpret("trump none").action == ChooseTrump(None)
    assert session.interpret("nt").action == ChooseTrump(None)
    r = session.interpret("XX")
    assert r.kind == "invalid" and "not a suit" in r.message
    assert session.prompt() == "name trump (S H D C none)"


def test_blind_and_hidden_deals_show_only_what_the_seat_sees(tmp_path: Path) -> None:
    v = ud.load_variant(str(variant_file(tmp_path, SHORT)))
    s, script, _ = scripted(v, 3, stop=lambda s: s.game.deal.number == 3)
    assert s.game.phase is Phase.BID and s.game.deal.number == 3
    view = s.view(s.to_act)
    assert view.hand == ()
    screen = render(seat_screen(view, s.names))
    assert "blind deal, you bid before you see your cards" in screen
    assert "Trump: not known yet" in screen

    v = ud.load_variant(str(variant_file(tmp_path, HIDDEN, "hidden.yaml")))
    s, _, _ = scripted(v, 3, seat=3, stop=lambda s: True)  # seat 4 bids last
    assert s.game.phase is Phase.BID and s.to_act == 3
    assert all(b is not None for b in s.game.bids[:3])
    screen = render(seat_screen(s.view(3), s.names))
    assert screen.count("hidden") == 3 + 1  # three hidden bids and the title's kind
    for seat in range(3):
        cells = next(line for line in screen.splitlines() if s.names[seat] in line).split()
        assert cells[cells.index(s.names[seat]) + 1] == "hidden"  # not the bid


def test_screen_shows_hand_trump_table_and_legal_moves() -> None:
    s, _ = _joker_state("odessa", "6S", lead=False)
    view = s.view(0)
    screen = render(seat_screen(view, s.names, deals=len(s.game.deals)))
    assert f"Deal {view.deal.number} of 15" in screen
    assert f"dealer {s.names[view.dealer]}" in screen
    assert "Your hand: 6♠(joker)" in screen
    assert "Table: " in screen and "led)" in screen
    assert "Legal: " in screen and "6S high" in screen
    trump = s.game.trump
    assert ("no trump" in screen) if trump is None else (trump.symbol in screen.split("Trump:")[1])
    assert f"{s.names[view.dealer]} (dealer" in screen


# --------------------------------------------------------------------------- the command


def test_a_whole_game_typed_at_the_command_line(tmp_path: Path) -> None:
    vfile = variant_file(tmp_path, SHORT)
    session, script, text = scripted(ud.load_variant(str(vfile)), 7)
    save = tmp_path / "game.log"
    r = play("--variant", str(vfile), "--seed", "7", "--save", str(save),
             input="\n".join(script.lines) + "\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Your hand: " in out and "Legal: " in out
    assert out.count("each player: bid/taken points") == len(session.game.deals)  # a sheet per deal
    totals = ", ".join(f"{n} {t}" for n, t in zip(session.names, session.game.totals))
    assert f"Totals: {totals}" in out
    settle = ", ".join(f"{n} {v:+d}" for n, v in zip(session.names, session.game.settlement()))
    assert f"Settlement: {settle}" in out
    winners = [session.names[s] for s in session.game.winners()]
    assert ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners) in out
    written = save.read_text(encoding="utf-8")
    assert body(written) == body(text)  # the same game as through the library
    report = check_file(save)
    assert report.clean and report.finished
    assert report.game is not None and report.game.totals == session.game.totals


@pytest.mark.slow
def test_bad_input_is_explained_and_never_ends_the_game(tmp_path: Path) -> None:
    s, lines = _joker_state("odessa", "6S", lead=False)
    g = s.game
    illegal = [c for c in g.hand(0) if c != Card.parse("6S")
               and not any(isinstance(a, Play) and a.card == c for a in g.legal_actions())]
    bad = ["XX", "99", "", "?", "JK", "demand", "table", "sheet"]
    if illegal:
        bad.append(str(illegal[0]))
    bad.append("JK")
    save = tmp_path / "g.log"
    r = play("--variant", "odessa", "--seed", str(s.seed), "--save", str(save),
             input="\n".join(lines + bad + ["high"]) + "\n")
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "✗ not a card: 'XX' [C001]" in out
    assert "it is your turn to play a card, not to bid" in out
    assert "Legal now: " in out and "6S high  6S low" in out
    assert "6S: high or low?" in out
    assert "not an answer: 'demand'; 6S: high or low?" in out
    if illegal:
        assert "[R010]" in out or "[R011]" in out or "[R012]" in out or "[R014]" in out
    assert "Game stopped in deal" in out and f"--resume {save}" in out
    t, _ = parse_transcript(save.read_text(encoding="utf-8"))
    assert t is not None
    you = t.players.index("You")
    assert any(e.kind == "play" and e.actor == you and str(e.play) == "6S high" for e in t.events)
    report = check_file(save)
    assert report.clean and not report.finished
    assert any(d.code == "T020" for d in report.diagnostics)


def test_bad_bids_are_refused_with_the_rule(tmp_path: Path) -> None:
    r = play("--variant", "odessa", "--seed", "3", input="XX\n99\nAS\n")
    assert r.exit_code == 0
    assert "not a bid: 'XX'" in r.stdout
    assert "bid 99 is out of range 0..1 [R020]" in r.stdout
    assert "it is your bid, not a card" in r.stdout
    assert "It was not saved" in r.stdout


def test_end_of_input_at_once(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    r = play("--variant", "russian", "--save", str(save))
    assert r.exit_code == 0
    assert "Game stopped in deal 1 of" in r.stdout
    report = check_file(save)
    assert report.clean and not report.finished
    t, _ = parse_transcript(save.read_text(encoding="utf-8"))
    assert t is not None and t.header("seed") is not None  # a random seed, kept for resuming


def test_quit_stops_cleanly(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    r = play("--variant", "oh-hell", "--seed", "1", "--save", str(save), input="quit\n0\n")
    assert r.exit_code == 0 and "Game stopped" in r.stdout
    assert check_file(save).clean


def test_ctrl_c_stops_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from updown_dsl.cli import play as cli_app

    def interrupt(*args: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_app._Terminal, "read", interrupt)
    save = tmp_path / "g.log"
    r = play("--variant", "odessa", "--seed", "1", "--save", str(save))
    assert r.exit_code == 130
    assert "Game interrupted in deal 1" in r.stdout and "--resume" in r.stdout
    assert check_file(save).clean


@pytest.mark.parametrize("cut", ["bid", "play"])
def test_stop_and_resume_gives_the_same_game(tmp_path: Path, cut: str) -> None:
    vfile = variant_file(tmp_path, SHORT)
    session, script, _ = scripted(ud.load_variant(str(vfile)), 11)
    whole = tmp_path / "whole.log"
    assert play("--variant", str(vfile), "--seed", "11", "--save", str(whole),
                input="\n".join(script.lines) + "\n").exit_code == 0
    # Stop inside deal 2 (after a bid, or after a card), then go on where it stopped.
    where = next(i for i, x in enumerate(script.lines)
                 if i >= 3 and (x.isdigit() if cut == "bid" else not x.isdigit()))
    part = tmp_path / "part.log"
    first = play("--variant", str(vfile), "--seed", "11", "--save", str(part),
                 input="\n".join(script.lines[:where]) + "\n")
    assert first.exit_code == 0 and "Game stopped" in first.stdout
    stopped = check_file(part)
    assert stopped.clean and not stopped.finished
    second = play("--resume", str(part), input="\n".join(script.lines[where:]) + "\n")
    assert second.exit_code == 0, second.stderr
    assert "Game over" in second.stdout
    assert part.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    done = check_file(part)
    assert done.clean and done.finished


def test_resume_a_record_from_elsewhere_with_a_penalty(tmp_path: Path) -> None:
    lines = (EXAMPLES / "odessa-revoke-penalty.log").read_text(encoding="utf-8").splitlines()
    stop = next(i for i, x in enumerate(lines) if x.startswith("deal 4"))
    path = tmp_path / "g.log"
    path.write_text("\n".join(lines[: stop + 6]) + "\n", encoding="utf-8")  # inside deal 4
    r = play("--resume", str(path), "--watch")
    assert r.exit_code == 0, r.stderr
    report = check_file(path)
    assert report.clean and report.finished, [str(d) for d in report.diagnostics]


def test_resume_refuses_a_record_with_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.log"
    shutil.copy(EXAMPLES / "invalid-revoke.log", path)
    before = path.read_bytes()
    r = play("--resume", str(path))
    assert r.exit_code == 3
    assert "error[R010]" in r.stderr and "cannot be resumed" in r.stderr
    assert path.read_bytes() == before
    with pytest.raises(ResumeError) as info:
        Session.resume(path)
    assert info.value.diagnostics


def test_resume_refuses_a_finished_game_and_a_sheet(tmp_path: Path) -> None:
    for name, words in (("odessa-full.log", "is over"), ("odessa-sheet.log", "sheet-level")):
        path = tmp_path / name
        shutil.copy(EXAMPLES / name, path)
        if name == "odessa-sheet.log":  # make it unfinished
            text = path.read_text(encoding="utf-8")
            path.write_text(text[: text.index("deal 5 ")], encoding="utf-8")
        r = play("--resume", str(path))
        assert r.exit_code == 3 and words in r.stderr, r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("variant", ud.bundled_names())
def test_watch_every_bundled_variant(tmp_path: Path, variant: str) -> None:
    save = tmp_path / "g.log"
    r = play("--variant", variant, "--watch", "--seed", "3", "--save", str(save))
    assert r.exit_code == 0, r.stderr
    assert "Game over after deal" in r.stdout and "Settlement: " in r.stdout
    assert "Trick 1: " in r.stdout and "each player: bid/taken" in r.stdout  # (" points" where 80 columns allow)
    report = check_file(save)
    assert report.clean and report.finished, [str(d) for d in report.diagnostics]
    t, _ = parse_transcript(save.read_text(encoding="utf-8"))
    assert t is not None and t.variant == variant and t.header("_watch") == "yes"
    assert report.game is not None
    if variant == "georgian":  # the acceptance case: 24 deals
        assert len(report.game.results) == 24


def test_save_refuses_to_overwrite(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    save.write_text("my notes\n", encoding="utf-8")
    r = play("--variant", "odessa", "--save", str(save), input="0\n")
    assert r.exit_code == 2 and "--force" in r.stderr
    assert save.read_text(encoding="utf-8") == "my notes\n"
    r = play("--variant", "odessa", "--seed", "1", "--save", str(save), "--force", input="")
    assert r.exit_code == 0
    assert check_file(save).clean


def test_usage_errors(tmp_path: Path) -> None:
    assert play().exit_code == 2  # no variant
    assert play("--variant", "odessa", "--seat", "5").exit_code == 2
    assert play("--variant", "odessa", "--watch", "--seat", "1").exit_code == 2
    assert play("--variant", "odessa", "--bot", "clever").exit_code == 2
    assert play("--variant", "odessa", "--name", "a,b,c,d,e").exit_code == 2
    assert play("--variant", "odessa", "--name", "deal").exit_code == 2
    assert play("--resume", str(tmp_path / "x.log"), "--variant", "odessa").exit_code == 2
    assert play("--variant", "no-such-game").exit_code == 3
    r = play("--resume", str(tmp_path / "missing.log"))
    assert r.exit_code == 3 and "cannot read" in r.stderr


def test_names_seat_and_bot(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    r = play("--variant", "odessa", "--players", "3", "--seat", "2", "--name", "Masha",
             "--bot", "random", "--seed", "2", "--save", str(save))
    assert r.exit_code == 0
    t, _ = parse_transcript(save.read_text(encoding="utf-8"))
    assert t is not None
    assert t.players == ("Anna", "Masha", "Boris")
    assert t.header("_human") == "Masha" and t.header("_bot") == "random"
    r = play("--variant", "odessa", "--players", "3", "--name", "Ann,Bob", "--name", "Cy", input="")
    assert r.exit_code == 0 and "Ann" in r.stdout and "Cy" in r.stdout


def test_final_sheet_matches_the_engine(tmp_path: Path) -> None:
    v = ud.load_variant(str(variant_file(tmp_path, SHORT)))
    session, _, _ = scripted(v, 9)
    sheet = render(sheet_table(session.game, session.names))
    last = [line for line in sheet.splitlines() if line.strip().startswith("3 ")][0]
    assert last.split()[-1] == str(session.game.totals[-1])
    assert [int(x) for x in last.split()[6::3]] == list(session.game.totals)


@pytest.mark.slow
def test_a_game_of_a_variant_file_ends_saying_how_the_record_travels(tmp_path: Path) -> None:
    (tmp_path / "river.yaml").write_text("name: river\nextends: oh-hell\n", encoding="utf-8")
    save = tmp_path / "g.log"
    result = play("--variant", str(tmp_path / "river.yaml"), "-n", "3", "--watch", "--seed", "1",
                  "--save", str(save))
    assert result.exit_code == 0
    assert "It names the variant file river.yaml" in result.stdout and "--embed-rules" in result.stdout
    embedded = play("--variant", str(tmp_path / "river.yaml"), "-n", "3", "--watch", "--seed", "1",
                    "--save", str(save), "--force", "--embed-rules")
    assert embedded.exit_code == 0 and "It names the variant file" not in embedded.stdout
