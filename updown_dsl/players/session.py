"""A game at the table as a library: seats, bots and the loop that asks each in turn.

Nothing here prints or reads: a :class:`Frontend` is told what happened and asked for
lines of input, so the same loop serves the terminal (``updown play``), tests and
scripts. A human seat sees only ``game.view(seat)``; bots are given only views too.

>>> import updown_dsl as ud
>>> game = ud.Game(ud.load_variant("oh-hell"), 4, auto_deal=False)
>>> s = Session(game, ("You", "Anna", "Boris", "Vera"), humans={0}, seed=7)
>>> _ = s.deal_if_needed()
>>> s.interpret("XX").kind, s.interpret("?").kind
('invalid', 'help')

Determinism: every deal is shuffled from a generator seeded by the game's seed and the
deal's place in the game (:func:`deal_seed`), and every bot decision from the seed and
the number of actions so far (:func:`bot_seed`), so a game stopped and resumed plays on
exactly as it would have without the stop.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import IO, Iterable, Protocol, Sequence

from ..i18n import mark, tr
from ..actions import Action
from ..engine import Game, IllegalAction, Phase, Trick
from ..engine.scoring import DealResult
from ..engine.view import SeatView
from ..lang.variant import Variant
from ..records.record import check_names, game_events, game_headers
from ..records.transcript import Header, Transcript, format_event, seat_of
from .bots import Bot, make_bot
from .execbot import ExecBot, Forfeit
from .recorder import RecordWriter, ResumeError, header_text, load_save, rebuild
from .savefile import SaveError, SaveFile
from .replies import Reply, action_text, interpret, legal_forms, prompt_text

#: Names given to bot seats (in this order) when none are given.
BOT_NAMES = (mark("Anna"), mark("Boris"), mark("Vera"), mark("Gleb"), mark("Dasha"), mark("Egor"),
             mark("Zhenya"), mark("Ivan"))
#: The default name of the (first) human seat.
HUMAN_NAME = mark("You")
#: Private header keys: who played at the keyboard, and which bot played the others.
HUMAN_KEY = "_human"
BOT_KEY = "_bot"
WATCH_KEY = "_watch"


# ============================================================================ seeds and names


class _Redealt:
    """What :meth:`Session.ask` returns when the player asked for the deal again (no action)."""

    def __repr__(self) -> str:
        return "REDEALT"


REDEALT = _Redealt()


def deal_seed(seed: int, game: Game) -> str:
    """The seed of the shuffle of the deal ``game`` is about to deal."""
    return f"updown-play:{seed}:deal:{game.deal_index}:{len(game.results)}"


def bot_seed(seed: int, seat: int, actions: int) -> str:
    """The seed of a bot's decision (``actions``: actions taken in the game so far)."""
    return f"updown-play:{seed}:bot:{seat}:{actions}"


def seat_names(players: int, humans: Iterable[int] = (), given: Sequence[str] = ()) -> tuple[str, ...]:
    """Player names by seat.

    ``given`` names seats in order (seat 1 first); a single name with a single human
    seat names that human. Seats left over are called ``You`` (the first human) or
    take a name from :data:`BOT_NAMES`, in the language of the messages (``Вы``, ``Анна`` ...).

    :raises ValueError: for too many names, a name a transcript cannot hold, or two
        equal names.
    """
    humans = sorted(set(humans))
    if len(given) > players:
        raise ValueError(f"{len(given)} names for {players} players")
    names: list[str | None] = [None] * players
    if len(given) == 1 and len(humans) == 1 and players > 1:
        names[humans[0]] = given[0]
    else:
        for s, name in enumerate(given):
            names[s] = name
    used = {n.lower() for n in names if n}
    human = tr(HUMAN_NAME)
    pool = [n for n in map(tr, BOT_NAMES) if n.lower() not in used and n.lower() != human.lower()]
    for s in range(players):
        if names[s] is not None:
            continue
        if s in humans and human.lower() not in used:
            names[s] = human
        elif pool:
            names[s] = pool.pop(0)
        else:
            names[s] = f"Player{s + 1}"
        used.add(names[s].lower())  # type: ignore[union-attr]
    out = tuple(n for n in names if n is not None)
    check_names(out)
    return out


# ============================================================================ input


# ============================================================================ the session


@dataclass(frozen=True)
class Step:
    """One action taken, and what it finished."""

    seat: int
    action: Action
    by_bot: bool
    trick: Trick | None = None
    """The trick this action completed."""
    trick_number: int = 0
    """That trick's number in its deal (1-based)."""
    result: DealResult | None = None
    """The deal this action completed (scored)."""
    over: bool = False
    """The game ended with this action."""
    forfeits: tuple[Forfeit, ...] = ()
    """An external program's decision its fallback bot made instead (``exec:`` bots)."""


@dataclass(frozen=True)
class Hint:
    """What the search bot suggests to a seat, and why: the expected points of the deal
    after the suggestion (from the seat's view only) and after the next best action."""

    seat: int
    action: Action
    value: float | None
    """None when there was nothing to weigh (one legal action, a call, no guess that fits)."""
    runner_up: Action | None = None
    runner_up_value: float | None = None


class Frontend(Protocol):
    """What a session needs from the outside world (the terminal, a test, a script)."""

    def turn(self, session: Session, seat: int) -> None:
        """A human seat is to act: show its screen."""

    def read(self, session: Session, seat: int, prompt: str) -> str | None:
        """One line typed by ``seat`` (None: end of input)."""

    def reply(self, session: Session, seat: int, reply: Reply) -> None:
        """Answer a line that was not an action (an explanation, help, a question)."""

    def step(self, session: Session, step: Step) -> None:
        """An action was taken (by a human or a bot)."""


@dataclass
class Session:
    """A game being played: who sits where, the bots, the record.

    :param game: a game made with ``auto_deal=False`` (the session deals, see
        :func:`deal_seed`).
    :param humans: seats typed for at the keyboard; every other seat is a bot.
    :param seed: the seed of the shuffles and of the bots' decisions.
    :param record: where the game is written as it goes (None: nowhere).
    :param actions: actions already taken (a resumed game).
    """

    game: Game
    names: tuple[str, ...]
    humans: frozenset[int] = frozenset()
    bot: str = "heuristic"
    seed: int = 0
    record: RecordWriter | None = None
    actions: int = 0
    variant_label: str | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    embed_rules: bool = False
    """Write the resolved rules in the record (a ``rules-text`` line): it then needs no file."""
    autoplay: bool = False
    """Play a human seat's only legal card for it (the frontend is told, a ``forced`` reply)."""
    hints: bool = True
    """A human seat may ask for the search bot's suggestion (``hint``); a table switch."""
    undo: bool = True
    """A human seat may take back its last decision of the deal (``undo``); a table switch."""
    _forfeits: tuple[Forfeit, ...] = field(default=(), init=False, repr=False)
    _undo_points: dict[int, tuple[Game, int, int]] = field(default_factory=dict, init=False, repr=False)
    """Per human seat: the game before its last decision, the actions then, the deal's index."""
    _actors: dict[int, int] = field(default_factory=dict, init=False, repr=False)
    """Who took each action since the session began (key: the action's number)."""

    def __post_init__(self) -> None:
        self.names = tuple(self.names)
        self.humans = frozenset(self.humans)
        if len(self.names) != self.game.players:
            raise ValueError(f"{len(self.names)} names for {self.game.players} players")
        check_names(self.names)
        bad = [s for s in self.humans if not 0 <= s < self.game.players]
        if bad:
            raise ValueError(f"seat {bad[0] + 1} is not at this table of {self.game.players}")
        for s in range(self.game.players):
            if s not in self.humans and s not in self.bots:
                self.bots[s] = make_bot(self.bot, random.Random(0))

    # ------------------------------------------------------------------ making one
    @classmethod
    def start(
        cls,
        variant: Variant,
        players: int | None = None,
        *,
        names: Sequence[str] = (),
        humans: Iterable[int] = (),
        seed: int | None = None,
        bot: str = "heuristic",
        first_dealer: int | None = None,
        save: str | os.PathLike[str] | IO[str] | None = None,
        force: bool = False,
        variant_label: str | None = None,
        embed_rules: bool = False,
        cards: str = "en",
    ) -> Session:
        """A new game. ``save``: a file to write the record to (refused when it exists,
        unless ``force``), made with its whole header and locked until :meth:`close` (see
        :mod:`~updown_dsl.players.savefile`), or an open text stream; ``cards``: the notation
        its cards are written in (``en``, ``ru``).

        :raises ValueError: for bad names, seats or player count.
        :raises FileExistsError: when ``save`` exists and ``force`` is not given.
        :raises SaveError: when the file cannot be made or written (a read-only folder, a
            full disk), or, with ``force``, another process is writing the file there
            (:class:`~updown_dsl.players.savefile.InUseError`).
        """
        n = players if players is not None else variant.default_players
        humans = frozenset(humans)
        all_names = seat_names(n, humans, list(names))
        make_bot(bot)  # an unknown bot name fails here, before any file is made
        if seed is None:
            seed = random.SystemRandom().randrange(1, 10**9)
        game = Game(variant, n, seed=seed, first_dealer=first_dealer, auto_deal=False)
        session = cls(game, all_names, humans, bot, seed, None, 0, variant_label, embed_rules=embed_rules)
        if isinstance(save, (str, os.PathLike)):
            session.record = RecordWriter(SaveFile.create(save, header_text(session.headers()),
                                                          force=force), all_names, cards=cards)
        elif save is not None:
            session.record = RecordWriter(save, all_names, cards=cards)
            session.record.header(session.headers())
        session.deal_if_needed()
        return session

    @classmethod
    def resume(
        cls,
        path: str | os.PathLike[str],
        *,
        humans: Iterable[int] | None = None,
        bot: str | None = None,
        append: bool = True,
        variant_path: Sequence[str | os.PathLike[str]] = (),
        cards: str = "en",
    ) -> Session:
        """Continue the game recorded in ``path`` (written by ``updown play`` or any
        full-level record), appending to the same file (``append``), which stays locked
        until :meth:`close` (see :mod:`~updown_dsl.players.savefile`); the lines written on
        have their cards in ``cards`` notation.

        Human seats and the bot come from the record's ``_human`` (or ``_watch``: no
        human) and ``_bot`` header lines unless given; a record without them is
        resumed with a human in the first seat and the heuristic bot.

        A save that ``updown play`` was writing when it died goes on from its last whole
        line: a line cut short is dropped (the file is cut back to it), and a deal whose
        cards may be cut short is dealt again, from the seed, to the same cards. So the
        finished file is the one the game would have written without the stop.

        ``variant_path``: folders besides the record's own where its variant file may be.

        :raises ResumeError: when the record cannot be read or written, is in use by
            another process, stops inside its header, has errors, is not at the full
            level, or is of a finished game.
        :raises SaveError: when writing the lines the record lacks fails (a full disk).
        """
        saved = load_save(path, append=append, variant_path=variant_path)
        t, name = saved.transcript, str(path)
        try:
            if humans is None:
                written = t.header(HUMAN_KEY)
                if written is not None:
                    humans = [s for s in (seat_of(t.players, w) for w in written.split()) if s is not None]
                else:  # nobody (a watched game) or, in a record from elsewhere, the first seat
                    humans = [] if t.header(WATCH_KEY) is not None else [0]
            if bot is None:
                bot = t.header(BOT_KEY) or "heuristic"
            make_bot(bot)
            game, actions = rebuild(t, saved.variant, saved.seed, redeal_last=saved.part.by_play)
            session = cls(game, t.players, frozenset(humans), bot, saved.seed, None, actions, t.variant,
                          embed_rules=t.header("rules-text") is not None)
            session.deal_if_needed()
            events = [format_event(e, t.players) for e in game_events(game, "full")]
            played = [format_event(e.replace(comment=None), t.players) for b in t.deals() for e in b
                      if e.kind not in ("comment", "raw")]
            if events[: len(played)] != played:
                raise ResumeError(tr("{name} is not written as `updown play` writes a game: it cannot be continued in the same file",
                                     name=name))
            if saved.file is not None:
                if saved.part.keep < len(saved.data):
                    saved.file.truncate(saved.part.keep)
                elif saved.data and not saved.data.endswith(b"\n"):
                    saved.file.write("\n")  # a record from elsewhere, without its last newline
                session.record = RecordWriter(saved.file, t.players, written=len(played),
                                              last=played[-1] if played else None, cards=cards)
                session.record.sync(game)
        except BaseException:
            saved.close()
            raise
        return session

    def headers(self) -> list[Header]:
        """The header lines of this game's record."""
        extra = [("seed", str(self.seed))]
        if self.humans:
            extra.append((HUMAN_KEY, " ".join(self.names[s] for s in sorted(self.humans))))
        else:
            extra.append((WATCH_KEY, "yes"))
        extra.append((BOT_KEY, self.bot))
        first = self.game.results[0].dealer if self.game.results else None
        if first is None:
            first = (self.game.dealer - self.game.deal_index) % self.game.players
        return game_headers(self.game, self.names, variant=self.variant_label, first_dealer=first,
                            level="full", extra=extra, embed_rules=self.embed_rules)

    def transcript(self) -> Transcript:
        """The record of the game so far (what the file holds)."""
        from ..records.record import game_transcript

        extra = [(h.key, h.value) for h in self.headers() if h.key in ("seed", HUMAN_KEY, WATCH_KEY, BOT_KEY)]
        return game_transcript(self.game, self.names, level="full", variant=self.variant_label,
                               extra=extra, embed_rules=self.embed_rules)

    def close(self) -> None:
        """Close the record file, if any."""
        if self.record is not None:
            self.record.close()

    # ------------------------------------------------------------------ the state
    @property
    def to_act(self) -> int:
        """The seat to act (-1 when nobody is)."""
        return self.game.to_act

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self.game.is_over

    def is_human(self, seat: int) -> bool:
        """True for a seat typed for at the keyboard."""
        return seat in self.humans

    def view(self, seat: int) -> SeatView:
        """What ``seat`` sees (all a human seat's screen shows)."""
        return self.game.view(seat)

    # ------------------------------------------------------------------ acting
    def deal_if_needed(self) -> bool:
        """Deal the current deal if it waits for cards (and write it); True if it dealt."""
        game = self.game
        if game.phase is not Phase.DEAL:
            return False
        game.rng = random.Random(deal_seed(self.seed, game))
        game.deal_random()
        if self.record is not None:
            self.record.sync(game)
        return True

    def bot_action(self, seat: int | None = None) -> Action:
        """The action the bot of ``seat`` (default: the seat to act) chooses now."""
        seat = self.game.to_act if seat is None else seat
        bot = self.bots.get(seat)
        if bot is None:
            bot = make_bot(self.bot, random.Random(0))
        bot.rng = random.Random(bot_seed(self.seed, seat, self.actions))  # type: ignore[attr-defined]
        if not isinstance(bot, ExecBot):
            return bot.act(self.game.view(seat))
        before = len(bot.forfeits)
        action = bot.act(self.game.view(seat))
        self._forfeits = tuple(bot.forfeits[before:])  # (told with the step this action makes)
        return action

    def apply(self, action: Action) -> Step:
        """Take ``action`` for the seat to act, write it, deal on if a deal ended.

        :raises IllegalAction: naming the rule when it is not legal.
        """
        game = self.game
        seat = game.to_act
        results = len(game.results)
        tricks = len(game.tricks)
        point = game.clone() if seat in self.humans and self.undo else None
        game.apply(action)
        if point is not None:
            self._undo_points[seat] = (point, self.actions, point.deal_index)
        self._actors[self.actions] = seat
        self.actions += 1
        trick: Trick | None = None
        number = 0
        scored = [r for r in game.results[results:] if r.event == "deal"]
        result = scored[-1] if scored else None
        if result is not None and result.tricks:
            last = result.tricks[-1]
            trick = last if isinstance(last, Trick) else None
            number = len(result.tricks)
        elif len(game.tricks) > tricks:
            trick = game.tricks[-1]
            number = len(game.tricks)
        step = Step(seat, action, seat not in self.humans, trick, number, result, game.is_over, self._forfeits)
        self._forfeits = ()
        # Deal on before writing: a blind deal's bids are written with its cards (the
        # record has no place for them while the cards are still to come).
        if not self.deal_if_needed() and self.record is not None:
            self.record.sync(game)
        return step

    # ------------------------------------------------------------------ hints and undo
    def hint(self, seat: int | None = None) -> Hint:
        """The search bot's suggestion to ``seat`` (default: the seat to act) at the default
        level, from that seat's view only, seeded as the session's bots are; written in the
        record as an annotation (``NAME hint ACTION``).

        :raises PermissionError: when the table switched hints off.
        """
        from .bots import HeuristicBot
        from .search import DEFAULT_LEVEL, SearchBot

        if not self.hints:
            raise PermissionError(tr("hints are off at this table"))
        seat = self.game.to_act if seat is None else seat
        rng = random.Random(bot_seed(self.seed, seat, self.actions) + ":hint")
        ev = SearchBot(rng, DEFAULT_LEVEL, bidder=HeuristicBot(rng)).evaluate(self.game.view(seat))
        ranked = sorted((a for a in ev.actions if a.action != ev.best and a.value == a.value),
                        key=lambda a: -a.value)
        own = ev.of(ev.best)
        hint = Hint(seat, ev.best, own.value if ev.searched and own is not None and own.value == own.value else None,
                    ranked[0].action if ev.searched and ranked else None,
                    ranked[0].value if ev.searched and ranked else None)
        if self.record is not None:
            self.record.hint(self.game, seat, hint.action)
        return hint

    def can_undo(self, seat: int) -> str | None:
        """Why ``seat`` cannot take back its last decision now (None: it can)."""
        if not self.undo:
            return tr("undo is off at this table")
        point = self._undo_points.get(seat)
        if point is None:
            return tr("there is no decision of yours to take back")
        game, actions, deal = point
        if deal != self.game.deal_index or len(self.game.results) != len(game.results):
            return tr("your last decision was in a deal that is over: only one of this deal can be taken back")
        if any(s in self.humans and s != seat for s in self._actors_since(actions)):
            return tr("another player at the keyboard has acted since")
        return None

    def take_back(self, seat: int | None = None) -> int:
        """Take back ``seat``'s last decision of the deal and every bot's action after it; the
        game is as it was before that decision, and the record says so (``NAME undo N``).
        Returns N, the actions taken back.

        :raises PermissionError: naming why it cannot (:meth:`can_undo`).
        """
        seat = self.game.to_act if seat is None else seat
        why = self.can_undo(seat)
        if why is not None:
            raise PermissionError(why)
        game, actions, _ = self._undo_points.pop(seat)
        count = self.actions - actions
        self.game = game
        for k in range(actions, self.actions):
            self._actors.pop(k, None)
        self.actions = actions
        if self.record is not None:
            self.record.take_back(self.game, seat, count)
        return count

    def redeal(self, seat: int | None = None) -> None:
        """``seat`` (default: the seat to act), void in a suit, asks for the deal again where the
        variant allows it (``dealing.void_redeal``): the same dealer deals again, and the record
        writes ``NAME redeal`` after the deal as far as it went.

        :raises IllegalAction: naming the rule (R025) when it may not.
        """
        seat = self.game.to_act if seat is None else seat
        self.game.redeal(seat)
        self._undo_points.clear()  # (a decision of a deal dealt again cannot be taken back)
        if not self.deal_if_needed() and self.record is not None:
            self.record.sync(self.game)

    def redeal_reply(self, seat: int) -> Reply:
        """The answer to ``redeal``: the deal dealt again, or why it is not."""
        try:
            self.redeal(seat)
        except IllegalAction as exc:
            problem = exc.diagnostics[0]
            return Reply("invalid", message=problem.message, hint=problem.hint, code=problem.code)
        return Reply("redealt", message=tr("the deal is dealt again: it does not count"))

    def _actors_since(self, actions: int) -> list[int]:
        return [self._actors[k] for k in range(actions, self.actions) if k in self._actors]

    def interpret(self, text: str, pending: str | None = None) -> Reply:
        """What ``text``, typed by the seat to act, means (see :func:`interpret`)."""
        return interpret(self.game, text, pending)

    def prompt(self, pending: str | None = None) -> str:
        """The question put to the seat to act (see :func:`prompt_text`)."""
        return prompt_text(self.game, pending)

    def run(self, frontend: Frontend) -> str:
        """Play until the game is over (``"over"``) or the input ends or a player quits
        (``"stopped"``; the record stays valid and can be resumed)."""
        self.deal_if_needed()
        while not self.game.is_over:
            seat = self.game.to_act
            if seat in self.humans:
                asked = self.ask(frontend, seat)
                if asked is None:
                    return "stopped"
                if isinstance(asked, _Redealt):
                    continue  # the deal was dealt again: whoever bids first now acts
                action = asked
            else:
                action = self.bot_action(seat)
            frontend.step(self, self.apply(action))
        return "over"

    def ask(self, frontend: Frontend, seat: int) -> Action | _Redealt | None:
        """Ask ``seat`` until it gives a legal action (None: end of input or ``quit``;
        :data:`REDEALT`: the player asked for the deal again, and it was)."""
        if self.autoplay and self.game.phase is Phase.PLAY:
            legal = self.game.legal_actions()
            if len(legal) == 1:
                frontend.reply(self, seat, Reply("forced", action=legal[0]))
                return legal[0]
        frontend.turn(self, seat)
        pending: str | None = None
        last = ""
        while True:
            line = frontend.read(self, seat, self.prompt(pending))
            if line is None:
                return None
            reply = self.interpret(line, pending)
            if reply.kind == "help" and last == "help":  # "?" twice: a hint
                reply = Reply("hint", pending=pending)
            last = reply.kind
            if reply.kind == "action":
                return reply.action
            if reply.kind == "quit":
                return None
            if reply.kind == "hint":
                reply = self.hint_reply(seat, pending)
            elif reply.kind == "redeal":
                reply = self.redeal_reply(seat)
                if reply.kind == "redealt":
                    frontend.reply(self, seat, reply)
                    return REDEALT  # (whoever acts first in the deal dealt again is asked, or plays)
            elif reply.kind == "undo":
                reply = self.undo_reply(seat)
                if reply.kind == "undone":
                    frontend.reply(self, seat, reply)
                    seat = self.game.to_act
                    frontend.turn(self, seat)
                    pending = None
                    continue
            pending = reply.pending
            frontend.reply(self, seat, reply)

    def hint_reply(self, seat: int, pending: str | None = None) -> Reply:
        """The answer to ``hint``: the suggestion with its reason, or why there is none."""
        try:
            hint = self.hint(seat)
        except PermissionError as exc:
            return Reply("invalid", message=str(exc), pending=pending)
        told = action_text(hint.action)
        if hint.value is None:
            why = tr("the only sensible choice here")
        elif hint.runner_up is None:
            why = tr("about {points} points expected in this deal", points=f"{hint.value:.1f}")
        else:
            why = tr("about {points} points expected in this deal, against {other} after {next}",
                     points=f"{hint.value:.1f}", other=f"{hint.runner_up_value:.1f}",
                     next=action_text(hint.runner_up))
        return Reply("hint", action=hint.action, message=tr("the search bot would play {action}: {why}",
                                                              action=told, why=why), pending=pending)

    def undo_reply(self, seat: int) -> Reply:
        """The answer to ``undo``: what was taken back, or why nothing was."""
        try:
            count = self.take_back(seat)
        except PermissionError as exc:
            return Reply("invalid", message=str(exc))
        return Reply("undone", message=tr("taken back: your last decision and {count} after it",
                                          count=count - 1) if count > 1 else tr("taken back: your last decision"))


__all__ = [
    "BOT_NAMES",
    "Frontend",
    "HUMAN_NAME",
    "RecordWriter",
    "Reply",
    "ResumeError",
    "SaveError",
    "Session",
    "Step",
    "action_text",
    "bot_seed",
    "deal_seed",
    "interpret",
    "legal_forms",
    "prompt_text",
    "rebuild",
    "seat_names",
]
