"""The record as it goes: a game written to its transcript after every action, and rebuilt from it."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Protocol, Sequence

from ..i18n import tr
from ..actions import Action, Bid
from ..diagnostics import Diagnostic, Severity
from ..engine import Game, IllegalAction, Phase
from ..lang.variant import Variant
from ..records.record import game_events, hint_event
from ..records.transcript import Event, Header, Transcript, format_event, format_header, parse_transcript
from .savefile import InUseError, SaveError, SaveFile, WholePart, whole_part


class ResumeError(ValueError):
    """A record that cannot be resumed; ``diagnostics`` say why when the checker found errors."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class Stream(Protocol):
    """Where a record is written: a text stream, or a :class:`SaveFile`."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


class RecordWriter:
    """Writes a game's full-level transcript as it is played, flushing after each action.

    The header is written once; after each action :meth:`sync` appends the events of
    ``game_events(game, "full")`` not written yet (a blank line before each ``deal``),
    and the ``settlement`` when the game is over, so the file always holds a valid
    (possibly unfinished) record.
    """

    def __init__(self, stream: Stream, names: Sequence[str], *, written: int = 0,
                 settled: bool = False, last: str | None = None, cards: str = "en") -> None:
        self.stream = stream
        self.cards = cards
        """The notation the cards are written in (``en``, ``ru``); ``last`` is in English."""
        self.names = tuple(names)
        self.written = written
        self.settled = settled
        self._last = last

    def header(self, headers: Iterable[Header]) -> None:
        """Write the header lines (call once, before the first :meth:`sync`)."""
        self.stream.write(header_text(headers))
        self.stream.flush()

    def sync(self, game: Game) -> int:
        """Append what happened since the last call, in one write; the number of lines written.

        When the write fails (:class:`~updown_dsl.players.savefile.SaveError` from a save
        file), nothing is counted as written: the next call writes the same lines again.
        """
        if self.settled:
            return 0
        events = list(game_events(game, "full"))
        if self.written and self._last is not None and \
                format_event(events[self.written - 1], self.names) != self._last:
            raise RuntimeError("the record written so far no longer matches the game")
        lines: list[str] = []
        for e in events[self.written:]:
            if e.kind == "deal":
                lines.append("")
            lines.append(format_event(e, self.names, self.cards))
        last = format_event(events[-1], self.names) if len(events) > self.written else self._last
        if game.is_over:
            lines += ["", format_event(Event("settlement", amounts=tuple(game.settlement())), self.names)]
        if lines:
            self.stream.write("\n".join(lines) + "\n")
            self.stream.flush()
        self.written, self._last, self.settled = len(events), last, game.is_over
        return len(lines)

    def hint(self, game: Game, seat: int, action: Action) -> None:
        """Write that ``seat`` was shown ``action`` as a suggestion (after what happened so far)."""
        self.sync(game)
        self._annotate(format_event(hint_event(seat, action), self.names, self.cards))

    def take_back(self, game: Game, seat: int, count: int) -> None:
        """Write that ``seat`` took back its decision and the actions after it (``count`` in all):
        ``game`` is the game as it is again; its events written stay, the record reads them as
        taken back."""
        self._annotate(format_event(Event("undo", actor=seat, number=count), self.names))
        events = list(game_events(game, "full"))
        self.written = len(events)
        self._last = format_event(events[-1], self.names) if events else None

    def _annotate(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Close the file."""
        self.stream.close()


def rebuild(t: Transcript, variant: Variant, seed: int = 0, *,
            redeal_last: bool = False) -> tuple[Game, int]:
    """The game of a full-level record, replayed through the engine: ``(game, actions)``.

    Each deal is dealt from its ``hand``/``turned``/``cut``/``trump`` lines (the bids of a
    blind deal first), then its trump choice, bids and cards are applied; a card followed
    by its player's ``penalty`` line is a revoke, a ``NAME redeal`` line a deal dealt again. The
    game waits where the record stops.

    ``redeal_last``: a last deal with nothing played yet is left to be dealt again (in a
    record ``updown play`` wrote, from the seed, to the same cards), not dealt from its lines,
    which may have been cut short when the process died while writing them.

    :raises ResumeError: when a deal's cards are not all known or the engine refuses a line.
    """
    game = Game(variant, len(t.players), seed=seed, first_dealer=t.first_dealer, auto_deal=False)
    actions = 0
    blocks = list(t.deals())
    for k, block in enumerate(blocks):
        events = [e for e in block[1:] if e.kind not in ("comment", "raw")]
        try:
            if game.kind.bidding == "before_deal":
                for e in events:
                    if e.kind == "bid" and game.phase is Phase.BID:
                        game.apply(Bid(e.number or 0))
                        actions += 1
            hands = {e.actor: e.cards for e in events if e.kind == "hand"}
            if not hands or (redeal_last and k == len(blocks) - 1 and not _acted(game, events)):
                break  # the record stops before the cards (or may stop inside them)
            if any(c is None for h in hands.values() for c in h) or len(hands) != game.players:
                raise ResumeError(tr("deal {number}: not every card is known", number=game.deal.number))
            turned = next((e.cards[0] for e in events if e.kind == "turned" and e.cards), None)
            cut = next((e.cards[0] for e in events if e.kind == "cut" and e.cards), None)
            trump_line = next((e for e in events if e.kind == "trump" and e.actor is None), None)
            trump = None if trump_line is None or trump_line.no_trump else trump_line.suit
            game.deal_cards([hands[s] for s in range(game.players)], turned=turned,  # type: ignore[misc]
                            cut_card=cut, random_trump=trump)
            for i, e in enumerate(events):
                if (e.kind == "trump" and e.actor is not None) or (e.kind == "call" and game.phase is Phase.AUCTION) \
                        or (e.kind == "bid" and game.phase is Phase.BID):
                    action = e.action
                    assert action is not None  # (an action line)
                    game.apply(action)
                    actions += 1
                elif e.kind == "play" and e.play is not None:
                    nxt = events[i + 1] if i + 1 < len(events) else None
                    if nxt is not None and nxt.kind == "penalty" and nxt.actor == e.actor:
                        continue  # an illegal card: the penalty line takes it back
                    game.apply(e.play)
                    actions += 1
                elif e.kind == "redeal" and e.actor is not None:
                    game.redeal(e.actor)  # (the next block deals it again)
                elif e.kind == "penalty" and e.actor is not None:
                    prev = events[i - 1] if i else None
                    card = prev.play if prev is not None and prev.kind == "play" and \
                        prev.actor == e.actor else None
                    game.revoke(e.actor, e.code or "R010", card)
        except IllegalAction as exc:
            raise ResumeError(tr("deal {number}: {message}",
                                 number=game.deal.number, message=exc.diagnostics[0].message),
                              exc.diagnostics) from None
    return game, actions


def _acted(game: Game, events: Sequence[Event]) -> bool:
    """True when a deal's events hold an action taken after its cards were dealt."""
    blind = game.kind.bidding == "before_deal"
    return any(e.kind in ("play", "penalty") or (e.kind == "trump" and e.actor is not None)
               or (e.kind in ("bid", "call") and not blind) for e in events)


def header_text(headers: Iterable[Header]) -> str:
    """The header lines of a record, as written."""
    return "".join(format_header(h) + "\n" for h in headers)


# ============================================================================ reading a save


@dataclass
class Saved:
    """A saved game read back to be resumed (see :func:`load_save`)."""

    transcript: Transcript
    variant: Variant
    seed: int
    data: bytes
    """The file as it was read."""
    part: WholePart
    """What of it is kept: a line cut short when the process died is dropped."""
    file: SaveFile | None
    """The file, open and locked, to write on (None: not appending)."""

    def close(self) -> None:
        """Close the file, if it is open."""
        if self.file is not None:
            self.file.close()


def load_save(path: str | os.PathLike[str], *, append: bool = True,
              variant_path: Sequence[str | os.PathLike[str]] = ()) -> Saved:
    """Read the game saved in ``path`` to resume it: checked, at the full level, unfinished.

    ``append``: open the file to write on and lock it first (so that no other process
    writes it meanwhile). A file ``updown play`` wrote loses the line a dying process cut
    short (:func:`~updown_dsl.players.savefile.whole_part`; the file itself is cut only when
    the game is written on). A finished game whose save stops before its ``settlement`` line
    is given back too, for its last lines to be written.

    :raises ResumeError: when the file cannot be read or written, is in use by another
        process, stops inside its header, has errors, is not at the full level, or holds
        a finished game.
    """
    name = str(path)
    file = None
    try:
        if append:
            file = SaveFile.open(path)
            data = file.read()
        else:
            data = Path(path).read_bytes()
    except InUseError as exc:
        raise ResumeError(str(exc)) from None
    except SaveError as exc:
        raise ResumeError(str(exc) if exc.errno == errno.ENOENT else tr("{exc} (a resumed game goes on in the same file)", exc=exc)) from None
    except OSError as exc:
        raise ResumeError(tr("cannot read {name}: {value}", name=name, value=exc.strerror or exc)) from None
    try:
        return _read_save(name, data, file, variant_path)
    except BaseException:
        if file is not None:
            file.close()
        raise


def _read_save(name: str, data: bytes, file: SaveFile | None,
               variant_path: Sequence[str | os.PathLike[str]]) -> Saved:
    from ..records.checker import check_transcript, transcript_variant

    part = whole_part(data)
    if part.header_cut:
        raise ResumeError(tr("{name} stops inside its header, before the first deal: nothing of the game was played, so there is nothing to resume (start it again with --save {name} --force)",
                             name=name))
    t, diags = parse_transcript(data[: part.keep], name)
    if t is None:
        raise ResumeError(tr("{name} is not a game record", name=name), diags)
    folders = [str(f) for f in variant_path]
    report = check_transcript(t, diags, variant_path=folders)
    problems = [d for d in report.diagnostics if d.severity == Severity.ERROR]
    if not report.readable or problems:
        raise ResumeError(tr("{name} has errors: it cannot be resumed", name=name),
                          problems or list(report.diagnostics))
    if report.finished and not (part.by_play and not any(e.kind == "settlement" for e in t.events)):
        raise ResumeError(tr("the game in {name} is over: there is nothing to resume", name=name))
    if t.level != "full":
        raise ResumeError(tr("{name} is a {level}-level record: only a full record (with the hands) can be resumed",
                             name=name, level=t.level))
    variant, vdiags = transcript_variant(t, folders)
    if variant is None:  # pragma: no cover - the checker refused it already
        raise ResumeError(tr("cannot load the variant of {name}", name=name), vdiags)
    seed_text = t.header("seed")
    try:
        seed = int(seed_text) if seed_text is not None else 0
    except ValueError:
        raise ResumeError(tr("{name}: the seed {seed_text!r} is not a whole number",
                             name=name, seed_text=seed_text)) from None
    return Saved(t, variant, seed, data, part, file)
