"""The engine protocol: JSON lines between updown and another program (``docs/protocol.md``).

Pure values and their JSON forms, no I/O: the requests a front end sends to the referee
(:class:`Request`, read by :func:`decode_request`), the replies it gets (:func:`reply`,
:func:`error_reply`, one line each by :func:`dumps`), the errors (:class:`ProtocolError`,
with a stable :class:`ErrorCode`), a seat's view as JSON (:func:`view_to_json`) and a bot's
answer read back as an action (:func:`decode_answer`). Actions travel as their text, the
form records use (``bid 2``, ``JK demand H``, ``trump none``, ``call 5 S``); cards as ``AS``,
suits as ``S H D C``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Mapping

from ..actions import Action, Call
from ..cards import Card, CardError
from ..engine.game import parse_action
from ..engine.state import Trick, TrickPlay
from ..engine.view import SeatView
from ..i18n import tr
from ..safetext import for_json

#: The protocol's name and version, in the answer to ``hello``.
PROTOCOL = "updown-protocol"
VERSION = 1
#: The longest line read (bytes): a ``check`` request may carry a whole record.
MAX_LINE = 16 * 1024 * 1024

JsonId = str | int | None


class Command(StrEnum):
    """What a request asks the referee."""

    HELLO = "hello"
    NEW = "new"
    STATE = "state"
    LEGAL = "legal"
    APPLY = "apply"
    VIEW = "view"
    RECORD = "record"
    CHECK = "check"
    QUIT = "quit"


class ErrorCode(StrEnum):
    """Why a request or an answer is refused; stable, for programs to test."""

    BAD_JSON = "bad-json"
    """The line is not JSON (or not UTF-8)."""
    LINE_TOO_LONG = "line-too-long"
    BAD_REQUEST = "bad-request"
    """JSON, but not a request: not an object, or a field missing or of the wrong type."""
    UNKNOWN_COMMAND = "unknown-command"
    NO_GAME = "no-game"
    """A game command before any ``new``."""
    BAD_GAME = "bad-game"
    """The variant, its options or the number of players of ``new`` cannot be used."""
    NOT_AN_ACTION = "not-an-action"
    ILLEGAL_ACTION = "illegal-action"
    """An action the rules refuse now; ``rule`` is the diagnostic code of the rule."""
    BAD_SEAT = "bad-seat"
    INTERNAL = "internal-error"
    """updown failed on the request (a bug to report); the session goes on."""


@dataclass(frozen=True)
class ProtocolError:
    """A refusal: a code, a message a player understands, a hint, and for a refused action the
    code of the rule (``R021``...)."""

    code: ErrorCode
    message: str
    hint: str | None = None
    rule: str | None = None
    id: JsonId = None

    def to_json(self) -> dict[str, object]:
        """The ``error`` object of a reply."""
        out: dict[str, object] = {"code": self.code.value, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        if self.rule:
            out["rule"] = self.rule
        return out


@dataclass(frozen=True)
class Request:
    """One request: its command, the caller's ``id`` (echoed in the reply) and its fields."""

    command: Command
    id: JsonId = None
    fields: Mapping[str, Any] = field(default_factory=dict)


def dumps(message: Mapping[str, object]) -> str:
    """One line of JSON (no line break inside; nothing a terminal acts on)."""
    return for_json(json.dumps(message, ensure_ascii=False, separators=(",", ":")))


def reply(request_id: JsonId, **payload: object) -> dict[str, object]:
    """A successful reply."""
    return {"id": request_id, "ok": True, **payload}


def error_reply(error: ProtocolError) -> dict[str, object]:
    """A refusal as a reply."""
    return {"id": error.id, "ok": False, "error": error.to_json()}


def _load(line: str | bytes) -> tuple[Any, ProtocolError | None]:
    if len(line) > MAX_LINE:
        return None, ProtocolError(ErrorCode.LINE_TOO_LONG,
                                   tr("a line is longer than {mb} MB: it is not read", mb=MAX_LINE >> 20))
    try:
        return json.loads(line), None
    except RecursionError:
        return None, ProtocolError(ErrorCode.BAD_JSON, tr("the JSON is nested too deeply to read"))
    except (ValueError, UnicodeDecodeError) as exc:
        return None, ProtocolError(ErrorCode.BAD_JSON, tr("not valid JSON: {exc}", exc=exc),
                                   hint=tr("send one JSON object per line"))


#: The fields each command reads, and their JSON types.
_FIELDS: dict[Command, dict[str, tuple[type, ...]]] = {
    Command.HELLO: {},
    Command.NEW: {"variant": (str,), "players": (int,), "seed": (int, str), "options": (dict,),
                  "names": (list,)},
    Command.STATE: {},
    Command.LEGAL: {},
    Command.APPLY: {"action": (str,)},
    Command.VIEW: {"seat": (int,)},
    Command.RECORD: {"level": (str,), "form": (str,)},
    Command.CHECK: {"record": (str, dict)},
    Command.QUIT: {},
}
_REQUIRED = {Command.APPLY: ("action",), Command.VIEW: ("seat",), Command.CHECK: ("record",)}


def decode_request(line: str | bytes) -> Request | ProtocolError:
    """The request on one line, or the error to answer it with (never raises)."""
    data, problem = _load(line)
    if problem is not None:
        return problem
    if not isinstance(data, dict):
        return ProtocolError(ErrorCode.BAD_REQUEST, tr("a request is a JSON object"),
                             hint=tr('e.g. {"cmd": "hello", "id": 1}'))
    rid = data.get("id")
    if not (rid is None or isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))):
        return ProtocolError(ErrorCode.BAD_REQUEST, tr("a request's id is a string or a whole number"))
    cmd = data.get("cmd")
    try:
        command = Command(str(cmd))
    except ValueError:
        return ProtocolError(ErrorCode.UNKNOWN_COMMAND, tr("no command {cmd!r}", cmd=cmd),
                             hint=tr("commands: {items}", items=", ".join(c.value for c in Command)), id=rid)
    wanted = _FIELDS[command]
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("cmd", "id"):
            continue
        types = wanted.get(key)
        if types is None:
            return ProtocolError(ErrorCode.BAD_REQUEST, tr("{cmd!r} takes no field {key!r}", cmd=command.value, key=key),
                                 hint=tr("its fields: {items}", items=", ".join(wanted) or "-"), id=rid)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, types):
            return ProtocolError(ErrorCode.BAD_REQUEST,
                                 tr("the field {key!r} of {cmd!r} is not a {kind}", key=key, cmd=command.value,
                                    kind=" or ".join(_TYPE_WORDS[t] for t in types)), id=rid)
        fields[key] = value
    for key in _REQUIRED.get(command, ()):
        if key not in fields:
            return ProtocolError(ErrorCode.BAD_REQUEST, tr("{cmd!r} needs the field {key!r}", cmd=command.value, key=key),
                                 id=rid)
    return Request(command, rid, fields)


_TYPE_WORDS = {str: "string", int: "whole number", dict: "object", list: "list"}


# --------------------------------------------------------------------------- actions and views
def action_text(action: Action) -> str:
    """An action as the protocol (and a record) writes it."""
    return str(action)


def read_action(text: str, view: SeatView) -> Action | ProtocolError:
    """``text`` read as one of the view's legal actions (a bare word as its phase asks), or the
    error: not an action at all, or not a legal one now."""
    try:
        action = parse_action(text, view.phase)
    except CardError as exc:
        d = exc.diagnostics[0]
        return ProtocolError(ErrorCode.NOT_AN_ACTION, d.message, hint=d.hint, rule=d.code)
    if action not in view.legal:
        return ProtocolError(ErrorCode.ILLEGAL_ACTION, tr("{action!r} is not a legal action now", action=text),
                             hint=tr("legal: {items}", items=", ".join(action_text(a) for a in view.legal[:20])))
    return action


def decode_answer(line: str | bytes, view: SeatView) -> Action | ProtocolError:
    """A bot's answer line (``{"action": "AS"}``) read as a legal action of ``view``, or why not."""
    data, problem = _load(line)
    if problem is not None:
        return problem
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        return ProtocolError(ErrorCode.BAD_REQUEST, tr('an answer is a JSON object with an "action" string'),
                             hint=tr('e.g. {"action": "bid 2"}'))
    return read_action(data["action"], view)


def _cards(cards: tuple[Card, ...] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


def _trick_play(tp: TrickPlay) -> dict[str, object]:
    return {"seat": tp.seat, "play": action_text(tp.play)}


def _trick(t: Trick) -> dict[str, object]:
    return {"leader": t.leader, "winner": t.winner, "plays": [_trick_play(p) for p in t.plays]}


def _call(c: Call | None) -> str | None:
    return None if c is None else action_text(c)


def view_to_json(view: SeatView) -> dict[str, object]:
    """What ``view`` shows, as JSON-ready data (the fields of ``docs/protocol.md``)."""
    d = view.deal
    return {
        "seat": view.seat,
        "players": view.players,
        "variant": view.variant.name,
        "deal": {"number": d.number, "cards": d.cards, "kind": d.kind, "set": d.set},
        "bidding": view.deal_kind_bidding,
        "dealer": view.dealer,
        "phase": view.phase.value,
        "to_act": view.to_act,
        "hand": _cards(view.hand),
        "trump": None if view.trump is None else view.trump.value,
        "trump_known": view.trump_known,
        "turned": None if view.turned is None else str(view.turned),
        "bids": list(view.bids),
        "taken": list(view.taken),
        "totals": list(view.totals),
        "trick": [_trick_play(tp) for tp in view.trick],
        "tricks": [_trick(t) for t in view.tricks],
        "legal": [action_text(a) for a in view.legal],
        "forbidden_bid": view.forbidden_bid,
        "winning_plays": sorted(action_text(p) for p in view.winning_plays),
        "trick_winner": view.trick_winner,
        "seen_hands": [_cards(h) for h in view.seen_hands],
        "calls": [_call(c) for c in view.calls],
        "declarer": view.declarer,
        "env": dict(view.deal_env),
    }


def act_message(view: SeatView) -> dict[str, object]:
    """What updown sends a bot when its seat is to act: the view, to be answered with an action."""
    return {"type": "act", "protocol": PROTOCOL, "version": VERSION, "view": view_to_json(view)}
