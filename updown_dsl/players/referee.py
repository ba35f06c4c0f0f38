"""The referee of the engine protocol: a game driven by another program's requests.

A :class:`Referee` answers one request line with one reply line (``docs/protocol.md``):
it starts a game, lists the legal actions, applies one, shows a seat's view, writes the
record and checks a record. Pure: lines in, lines out; ``updown referee`` reads them from
standard input and writes the replies. Every failure is a reply with an error code, never
an exception.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Sequence

from ..cards import CardError
from ..engine import Game, IllegalAction
from ..i18n import tr
from ..lang.loader import bundled_names, load_with_options
from ..records.checker import check_text, check_transcript
from ..records.jsonform import transcript_from_json, transcript_to_json
from ..records.model import LEVELS
from ..records.record import check_names, default_names, game_transcript
from ..records.report import CheckReport
from ..records.writer import format_transcript
from .protocol import (PROTOCOL, VERSION, Command, ErrorCode, ProtocolError, Request, action_text, decode_request,
                       dumps, error_reply, reply, view_to_json)

__all__ = ["Referee"]


class Referee:
    """One game at a time, refereed for a program that sends requests (see the module)."""

    def __init__(self, variant_path: Sequence[str | Path] = ()) -> None:
        self.variant_path = tuple(variant_path)
        self.game: Game | None = None
        self.names: tuple[str, ...] = ()
        self.label = ""
        self.options: tuple[tuple[str, str], ...] = ()
        self.done = False
        """True once a ``quit`` was answered."""
        self._handlers: dict[Command, Callable[[Request], dict[str, object]]] = {
            Command.HELLO: self._hello, Command.NEW: self._new, Command.STATE: self._state,
            Command.LEGAL: self._legal, Command.APPLY: self._apply, Command.VIEW: self._view,
            Command.RECORD: self._record, Command.CHECK: self._check, Command.QUIT: self._quit}

    def answer(self, line: str | bytes) -> str:
        """The reply line (without its line break) to one request line."""
        request = decode_request(line)
        if isinstance(request, ProtocolError):
            return dumps(error_reply(request))
        return dumps(self.handle(request))

    def handle(self, request: Request) -> dict[str, object]:
        """The reply to a decoded request, as JSON-ready data."""
        try:
            return self._handlers[request.command](request)
        except _Refused as exc:
            return error_reply(ProtocolError(exc.code, exc.message, exc.hint, exc.rule, request.id))
        except Exception as exc:  # a bug must not end the session: the front end gets a reply
            return error_reply(ProtocolError(ErrorCode.INTERNAL, tr("updown failed on this request: {exc}",
                                                                    exc=f"{type(exc).__name__}: {exc}"),
                                             id=request.id))

    # -- the commands --------------------------------------------------------------------------
    def _hello(self, r: Request) -> dict[str, object]:
        from .. import __version__

        return reply(r.id, protocol=PROTOCOL, version=VERSION, updown=__version__,
                     commands=[c.value for c in Command])

    def _new(self, r: Request) -> dict[str, object]:
        f = r.fields
        name = f.get("variant")
        if name is None:
            raise _Refused(ErrorCode.BAD_REQUEST, tr("'new' needs the field 'variant'"),
                           tr("bundled: {items}", items=", ".join(bundled_names())))
        options = tuple((str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in f.get("options", {}).items())
        variant, diags = load_with_options(name, list(options), variant_path=self.variant_path)
        if variant is None:
            first = diags[0] if diags else None
            raise _Refused(ErrorCode.BAD_GAME, first.message if first else tr("the variant cannot be loaded"),
                           first.hint if first else None, first.code if first else None)
        players = f.get("players", variant.default_players)
        if not variant.min_players <= players <= variant.max_players:
            raise _Refused(ErrorCode.BAD_GAME, tr("{variant} is for {low} to {high} players, not {n}",
                                                  variant=variant.name, low=variant.min_players,
                                                  high=variant.max_players, n=players))
        names = tuple(str(x) for x in f.get("names", default_names(players)))
        if len(names) != players:
            raise _Refused(ErrorCode.BAD_GAME, tr("{count} names for {n} players", count=len(names), n=players))
        try:
            check_names(names)
        except ValueError as exc:
            raise _Refused(ErrorCode.BAD_GAME, str(exc)) from None
        seed = f.get("seed")
        self.game = Game(variant, players, rng=random.Random(seed))
        self.names, self.label, self.options = names, name, options
        return reply(r.id, **self._summary())

    def _state(self, r: Request) -> dict[str, object]:
        self._playing()
        return reply(r.id, **self._summary())

    def _legal(self, r: Request) -> dict[str, object]:
        game = self._playing()
        return reply(r.id, phase=game.phase.value, to_act=game.to_act,
                     legal=[action_text(a) for a in game.legal_actions()])

    def _apply(self, r: Request) -> dict[str, object]:
        game = self._playing()
        text = r.fields["action"]
        try:
            action = game.parse_action(text)
        except CardError as exc:  # the text is no action (its diagnostic says why)
            d = exc.diagnostics[0]
            raise _Refused(ErrorCode.NOT_AN_ACTION, d.message, d.hint, d.code) from None
        seat = game.to_act
        try:
            game.apply(action)
        except IllegalAction as exc:
            d = exc.diagnostics[0]
            raise _Refused(ErrorCode.ILLEGAL_ACTION, d.message, d.hint, d.code) from None
        return reply(r.id, applied=action_text(action), seat=seat, **self._summary())

    def _view(self, r: Request) -> dict[str, object]:
        game = self._playing()
        seat = r.fields["seat"]
        if not 0 <= seat < game.players:
            raise _Refused(ErrorCode.BAD_SEAT, tr("seats are 0 to {last}, not {seat}", last=game.players - 1, seat=seat))
        return reply(r.id, view=view_to_json(game.view(seat)))

    def _record(self, r: Request) -> dict[str, object]:
        game = self._playing()
        level = r.fields.get("level", "full")
        form = r.fields.get("form", "text")
        if level not in LEVELS:
            raise _Refused(ErrorCode.BAD_REQUEST, tr("levels are {items}, not {level!r}", items=", ".join(LEVELS),
                                                     level=level))
        if form not in ("text", "json"):
            raise _Refused(ErrorCode.BAD_REQUEST, tr("forms are text and json, not {form!r}", form=form))
        extra = tuple(("option", f"{k}={v}") for k, v in self.options)
        t = game_transcript(game, self.names, level=level, variant=self.label, extra=extra,
                            embed_rules=bool(self.options))
        if form == "json":
            return reply(r.id, record=transcript_to_json(t))
        return reply(r.id, text=format_transcript(t))

    def _check(self, r: Request) -> dict[str, object]:
        record = r.fields["record"]
        if isinstance(record, str):
            report = check_text(record, variant_path=self.variant_path)
        else:
            t, diags = transcript_from_json(record)
            report = (check_transcript(t, diags, variant_path=self.variant_path) if t is not None
                      else CheckReport(None, tuple(diags), readable=False))
        return reply(r.id, **_report_json(report))

    def _quit(self, r: Request) -> dict[str, object]:
        self.done = True
        return reply(r.id, bye=True)

    # -- helpers -------------------------------------------------------------------------------
    def _playing(self) -> Game:
        if self.game is None:
            raise _Refused(ErrorCode.NO_GAME, tr("no game yet"), tr("start one with 'new', naming the variant"))
        return self.game

    def _summary(self) -> dict[str, Any]:
        game = self._playing()
        over = game.is_over
        d = game.deal
        return {
            "variant": self.label, "names": list(self.names), "players": game.players,
            "deal": {"number": d.number, "cards": d.cards, "kind": d.kind, "set": d.set}, "deals": len(game.deals),
            "phase": game.phase.value, "to_act": game.to_act, "dealer": game.dealer,
            "totals": list(game.totals), "over": over, "over_reason": game.over_reason,
            "settlement": game.settlement() if over else None, "winners": game.winners() if over else None,
        }


def _report_json(report: CheckReport) -> dict[str, object]:
    return {"readable": report.readable, "clean": report.clean, "finished": report.finished,
            "level": report.level, "diagnostics": [d.to_dict() for d in report.diagnostics]}


class _Refused(Exception):
    """A request refused (becomes the reply's error object)."""

    def __init__(self, code: ErrorCode, message: str, hint: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.hint, self.rule = code, message, hint, rule
