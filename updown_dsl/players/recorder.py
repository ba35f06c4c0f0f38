"""The record as it goes: a game written to its transcript after every action, and rebuilt from it."""

from __future__ import annotations

import os
from typing import IO, Iterable, Sequence

from ..actions import Bid, ChooseTrump
from ..diagnostics import Diagnostic
from ..engine import Game, IllegalAction, Phase
from ..lang.variant import Variant
from ..records.record import game_events
from ..records.transcript import Event, Header, Transcript, format_event, format_header


class ResumeError(ValueError):
    """A record that cannot be resumed; ``diagnostics`` say why when the checker found errors."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class RecordWriter:
    """Writes a game's full-level transcript as it is played, flushing after each action.

    The header is written once; after each action :meth:`sync` appends the events of
    ``game_events(game, "full")`` not written yet (a blank line before each ``deal``),
    and the ``settlement`` when the game is over, so the file always holds a valid
    (possibly unfinished) record.
    """

    def __init__(self, stream: IO[str], names: Sequence[str], *, written: int = 0,
                 settled: bool = False, last: str | None = None) -> None:
        self.stream = stream
        self.names = tuple(names)
        self.written = written
        self.settled = settled
        self._last = last

    def header(self, headers: Iterable[Header]) -> None:
        """Write the header lines (call once, before the first :meth:`sync`)."""
        self._write([format_header(h) for h in headers])

    def sync(self, game: Game) -> int:
        """Append what happened since the last call; the number of lines written."""
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
            lines.append(format_event(e, self.names))
        if len(events) > self.written:
            self._last = format_event(events[-1], self.names)
        self.written = len(events)
        if game.is_over:
            lines += ["", format_event(Event("settlement", amounts=tuple(game.settlement())), self.names)]
            self.settled = True
        self._write(lines)
        return len(lines)

    def _write(self, lines: list[str]) -> None:
        if lines:
            self.stream.write("\n".join(lines) + "\n")
            self.stream.flush()

    def close(self) -> None:
        """Close the file."""
        self.stream.close()


def rebuild(t: Transcript, variant: Variant, seed: int = 0) -> tuple[Game, int]:
    """The game of a full-level record, replayed through the engine: ``(game, actions)``.

    Each deal is dealt from its ``hand``/``turned``/``cut``/``trump`` lines (the bids of a
    blind deal first), then its trump choice, bids and cards are applied; a card followed
    by its player's ``penalty`` line is a revoke. The game waits where the record stops.

    :raises ResumeError: when a deal's cards are not all known or the engine refuses a line.
    """
    game = Game(variant, len(t.players), seed=seed, first_dealer=t.first_dealer, auto_deal=False)
    actions = 0
    for block in t.deals():
        events = [e for e in block[1:] if e.kind not in ("comment", "raw")]
        try:
            if game.kind.bidding == "before_deal":
                for e in events:
                    if e.kind == "bid" and game.phase is Phase.BID:
                        game.apply(Bid(e.number or 0))
                        actions += 1
            hands = {e.actor: e.cards for e in events if e.kind == "hand"}
            if not hands:
                break  # the record stops before the cards
            if any(c is None for h in hands.values() for c in h) or len(hands) != game.players:
                raise ResumeError(f"deal {game.deal.number}: not every card is known")
            turned = next((e.cards[0] for e in events if e.kind == "turned" and e.cards), None)
            cut = next((e.cards[0] for e in events if e.kind == "cut" and e.cards), None)
            trump_line = next((e for e in events if e.kind == "trump" and e.actor is None), None)
            trump = None if trump_line is None or trump_line.no_trump else trump_line.suit
            game.deal_cards([hands[s] for s in range(game.players)], turned=turned,  # type: ignore[misc]
                            cut_card=cut, random_trump=trump)
            for i, e in enumerate(events):
                if e.kind == "trump" and e.actor is not None:
                    game.apply(ChooseTrump(None if e.no_trump else e.suit))
                    actions += 1
                elif e.kind == "bid" and game.phase is Phase.BID:
                    game.apply(Bid(e.number or 0))
                    actions += 1
                elif e.kind == "play" and e.play is not None:
                    nxt = events[i + 1] if i + 1 < len(events) else None
                    if nxt is not None and nxt.kind == "penalty" and nxt.actor == e.actor:
                        continue  # an illegal card: the penalty line takes it back
                    game.apply(e.play)
                    actions += 1
                elif e.kind == "penalty" and e.actor is not None:
                    prev = events[i - 1] if i else None
                    card = prev.play if prev is not None and prev.kind == "play" and \
                        prev.actor == e.actor else None
                    game.revoke(e.actor, e.code or "R010", card)
        except IllegalAction as exc:
            raise ResumeError(f"deal {game.deal.number}: {exc.diagnostics[0].message}",
                              exc.diagnostics) from None
    return game, actions


def _open_new(path: str | os.PathLike[str], force: bool) -> IO[str]:
    """A new text file for the record (never replacing one unless ``force``)."""
    mode = "w" if force else "x"
    return open(path, mode, encoding="utf-8", newline="\n")
