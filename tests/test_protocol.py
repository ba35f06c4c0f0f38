"""The engine protocol: its JSON forms (players/protocol.py), the referee (players/referee.py)
and `updown referee` (cli/referee.py); docs/protocol.md's session is replayed line by line."""

from __future__ import annotations

import doctest
import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

import updown_dsl as ud
from updown_dsl.cli import app
from updown_dsl.cli.referee import serve
from updown_dsl.players import protocol
from updown_dsl.players.protocol import (Command, ErrorCode, ProtocolError, Request, act_message, decode_answer,
                                         decode_request, read_action, view_to_json)
from updown_dsl.players.referee import Referee
from updown_dsl.records.checker import check_text

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def _session() -> list[tuple[str, str]]:
    """The (request, reply) pairs of docs/protocol.md's session."""
    block = DOC.read_text(encoding="utf-8").split("## A session", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    assert len(lines) % 2 == 0 and lines
    pairs = [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]
    assert all(q.startswith("> ") and a.startswith("< ") for q, a in pairs)
    return [(q[2:], a[2:]) for q, a in pairs]


def test_the_documented_session_replays_exactly() -> None:
    referee = Referee()
    for request, expected in _session():
        assert referee.answer(request) == expected, request
    assert referee.done


def test_updown_referee_answers_the_documented_session_on_its_standard_output() -> None:
    pairs = _session()
    result = CliRunner().invoke(app, ["referee"], input="".join(q + "\n" for q, _ in pairs))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [a for _, a in pairs]


def test_the_documented_python_example_runs() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(DOC.read_text(encoding="utf-8"), {}, "protocol.md", str(DOC), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_session_ends_at_the_end_of_the_input_and_skips_blank_lines() -> None:
    out = io.StringIO()
    serve(io.BytesIO(b'\n{"cmd": "hello", "id": 7}\n   \n{"cmd": "state"}'), out, [])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [True, False]
    assert replies[0]["id"] == 7 and replies[1]["error"]["code"] == "no-game"


def test_a_line_too_long_is_refused_and_the_next_line_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "MAX_LINE", 100)
    out = io.StringIO()
    serve(io.BytesIO(b'{"cmd": "hello", "pad": "' + b"x" * 500 + b'"}\n{"cmd": "hello"}\n'), out, [])
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["error"]["code"] == "line-too-long" and second["ok"] is True


@pytest.mark.parametrize("line, code", [
    (b"\xff\xfe not utf-8", ErrorCode.BAD_JSON),
    (b"[" * 100000, ErrorCode.BAD_JSON),
    (b'"apply"', ErrorCode.BAD_REQUEST),
    (b'{"cmd": "apply", "action": 3}', ErrorCode.BAD_REQUEST),
    (b'{"cmd": "apply", "action": "AS", "seat": 1}', ErrorCode.BAD_REQUEST),
    (b'{"cmd": "view", "seat": true}', ErrorCode.BAD_REQUEST),
    (b'{"cmd": "hello", "id": [1]}', ErrorCode.BAD_REQUEST),
    (b'{"cmd": "HELLO"}', ErrorCode.UNKNOWN_COMMAND),
    (b'{"id": 4}', ErrorCode.UNKNOWN_COMMAND),
])
def test_bad_requests_are_errors_with_a_code(line: bytes, code: ErrorCode) -> None:
    decoded = decode_request(line)
    assert isinstance(decoded, ProtocolError) and decoded.code is code and decoded.message
    reply = json.loads(Referee().answer(line))
    assert reply["ok"] is False and reply["error"]["code"] == code.value


def test_a_request_is_a_typed_value() -> None:
    assert decode_request('{"cmd": "view", "seat": 2, "id": "x"}') == Request(Command.VIEW, "x", {"seat": 2})


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 st.dictionaries(st.sampled_from(["cmd", "id", "action", "seat", "variant", "players", "record"]),
                                 st.one_of(st.none(), st.integers(), st.text(max_size=20), st.booleans(),
                                           st.sampled_from([c.value for c in Command])), max_size=4)
                 .map(json.dumps)))
def test_any_line_gets_one_json_reply_line(line: str | bytes) -> None:
    referee = Referee()
    referee.answer('{"cmd": "new", "variant": "oh-hell", "players": 3, "seed": 1}')
    answer = referee.answer(line)
    assert "\n" not in answer
    reply = json.loads(answer)
    assert reply["ok"] in (True, False)
    if not reply["ok"]:
        assert reply["error"]["code"] in {c.value for c in ErrorCode} and reply["error"]["code"] != "internal-error"


@pytest.mark.parametrize("variant, options", [("georgian", None), ("odessa", {"scoring.params.pass": 0}),
                                              ("estimation", None), ("russian", None)])
def test_a_whole_game_through_the_referee_writes_a_record_that_checks_clean(variant: str, options: object) -> None:
    referee = Referee()
    new = {"cmd": "new", "variant": variant, "seed": "s1", "names": None}
    if options:
        new["options"] = options
    state = json.loads(referee.answer(json.dumps(new)))
    assert state["ok"], state
    rng = random.Random(2)
    while not state["over"]:
        legal = json.loads(referee.answer('{"cmd": "legal"}'))
        view = json.loads(referee.answer(json.dumps({"cmd": "view", "seat": legal["to_act"]})))["view"]
        assert view["legal"] == legal["legal"]
        state = json.loads(referee.answer(json.dumps({"cmd": "apply", "action": rng.choice(legal["legal"])})))
        assert state["ok"], state
    assert state["settlement"] is not None and state["winners"]
    text = json.loads(referee.answer('{"cmd": "record"}'))["text"]
    report = check_text(text)
    assert report.clean and report.finished, [str(d) for d in report.diagnostics]
    assert report.game is not None and list(report.game.totals) == state["totals"]
    as_json = json.loads(referee.answer('{"cmd": "record", "form": "json"}'))["record"]
    checked = json.loads(referee.answer(json.dumps({"cmd": "check", "record": as_json})))
    assert checked["clean"] and checked["finished"]


def test_new_game_errors() -> None:
    referee = Referee()

    def error(request: dict[str, object]) -> dict[str, object]:
        reply = json.loads(referee.answer(json.dumps(request)))
        assert reply["ok"] is False
        return reply["error"]

    assert error({"cmd": "new"})["code"] == "bad-request"
    assert error({"cmd": "new", "variant": "no-such-game"})["code"] == "bad-game"
    assert error({"cmd": "new", "variant": "oh-hell", "players": 12})["code"] == "bad-game"
    assert error({"cmd": "new", "variant": "oh-hell", "players": 3, "names": ["a", "b"]})["code"] == "bad-game"
    assert error({"cmd": "new", "variant": "oh-hell", "players": 3, "names": ["a", "a", "b"]})["code"] == "bad-game"
    bad_option = error({"cmd": "new", "variant": "odessa", "options": {"scoring.params.pass": "many"}})
    assert bad_option["code"] == "bad-game" and re.fullmatch(r"[VF]\d{3}", bad_option["rule"])
    assert error({"cmd": "record", "level": "fine"})["code"] == "no-game"
    referee.answer('{"cmd": "new", "variant": "oh-hell", "players": 3}')
    assert error({"cmd": "record", "level": "fine"})["code"] == "bad-request"
    assert error({"cmd": "view", "seat": 3})["code"] == "bad-seat"


def test_a_view_shows_only_the_seats_own_cards() -> None:
    game = ud.Game(ud.load_variant("georgian"), 4, seed=4)
    while game.phase is not ud.Phase.PLAY:
        game.apply(game.legal_actions()[0])
    for seat in range(4):
        data = view_to_json(game.view(seat))
        assert data["hand"] == [str(c) for c in game.hand(seat)]
        others = {str(c) for s in range(4) if s != seat for c in game.hand(s)}
        assert not others & set(json.dumps(data).replace('"', " ").split())
        assert data["legal"] == ([str(a) for a in game.legal_actions()] if seat == game.to_act else [])
    message = act_message(game.view(game.to_act))
    assert message["type"] == "act" and message["protocol"] == "updown-protocol"


def test_answers_read_back_as_legal_actions() -> None:
    game = ud.Game(ud.load_variant("oh-hell"), 3, seed=1)
    view = game.view(game.to_act)
    assert decode_answer('{"action": "bid 1"}', view) == ud.Bid(1)
    assert decode_answer('{"action": "0"}', view) == ud.Bid(0)
    assert isinstance(decode_answer('{"action": "bid 5"}', view), ProtocolError)
    assert decode_answer('{"action": "bid 5"}', view).code is ErrorCode.ILLEGAL_ACTION  # type: ignore[union-attr]
    assert decode_answer('{"action": "bid x"}', view).code is ErrorCode.NOT_AN_ACTION  # type: ignore[union-attr]
    assert decode_answer('["bid 1"]', view).code is ErrorCode.BAD_REQUEST  # type: ignore[union-attr]
    assert isinstance(read_action("bid 1", view), ud.Bid)
