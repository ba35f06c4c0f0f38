"""A game at the table as a library: seats, bots, typed input and the record as it goes.

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
from pathlib import Path
from typing import IO, Iterable, Protocol, Sequence

from ..actions import DECLARATIONS, Action, Bid, ChooseTrump, Play
from .bots import Bot, make_bot
from ..cards import SUIT_ORDER, Card, CardError, Suit
from ..diagnostics import Diagnostic, Severity
from ..engine import Game, IllegalAction, Phase, Trick
from ..records.record import check_names, game_events, game_headers
from ..engine.scoring import DealResult
from ..records.transcript import Event, Header, Transcript, format_event, format_header, parse_transcript, seat_of
from ..lang.variant import Variant
from ..engine.view import SeatView

#: Names given to bot seats (in this order) when none are given.
BOT_NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ivan")
#: The default name of the (first) human seat.
HUMAN_NAME = "You"
#: Private header keys: who played at the keyboard, and which bot played the others.
HUMAN_KEY = "_human"
BOT_KEY = "_bot"
WATCH_KEY = "_watch"

_HELP_WORDS = {"?", "help"}
_QUIT_WORDS = {"quit", "exit"}
_SHOW_WORDS = {"sheet": "sheet", "score": "sheet", "scores": "sheet", "table": "table", "hand": "table"}
_NO_TRUMP_WORDS = {"none", "nt", "no", "notrump", "no-trump"}
_PLAIN = "plain"


# ============================================================================ seeds and names


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
    take a name from :data:`BOT_NAMES`.

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
    pool = [n for n in BOT_NAMES if n.lower() not in used and n.lower() != HUMAN_NAME.lower()]
    for s in range(players):
        if names[s] is not None:
            continue
        if s in humans and HUMAN_NAME.lower() not in used:
            names[s] = HUMAN_NAME
        elif pool:
            names[s] = pool.pop(0)
        else:
            names[s] = f"Player{s + 1}"
        used.add(names[s].lower())  # type: ignore[union-attr]
    out = tuple(n for n in names if n is not None)
    check_names(out)
    return out


# ============================================================================ input


@dataclass(frozen=True)
class Reply:
    """What a line of input means.

    ``kind`` is one of:

    * ``action``: ``action`` is legal and is taken;
    * ``ask``: a card needs a declaration; ``message`` is the question, ``pending``
      the words typed so far (give it back with the next line), ``options`` the
      legal ways to finish it;
    * ``invalid``: not a legal action; ``message`` says why (``code``: the rule,
      when the engine refused it; ``hint``: what would do);
    * ``help``: ``options`` lists the legal actions as they are typed;
    * ``show``: ``message`` is ``table`` or ``sheet`` (show it again);
    * ``quit``: stop the game here (it can be resumed).
    """

    kind: str
    action: Action | None = None
    message: str = ""
    code: str | None = None
    hint: str | None = None
    options: tuple[str, ...] = ()
    pending: str | None = None


def action_text(action: Action) -> str:
    """An action as a player types it: ``2``, ``AS``, ``JK demand H``, ``H``, ``none``."""
    if isinstance(action, Bid):
        return str(action.tricks)
    if isinstance(action, ChooseTrump):
        return "none" if action.suit is None else action.suit.value
    return str(action)


def display_order(cards: Iterable[Card], trump: Suit | None, variant: Variant) -> list[Card]:
    """Cards as a hand is shown: jokers, then trumps, then the other suits (spades, hearts,
    clubs, diamonds), each suit high to low."""
    designated = variant.deck.designated_jokers
    suits = ([trump] if trump is not None else []) + [s for s in SUIT_ORDER if s != trump]

    def key(c: Card) -> tuple[int, int, int]:
        if c.is_joker or c in designated or c.suit is None:
            return (0, 0, c.joker)
        return (1, suits.index(c.suit), -c.rank.order)  # type: ignore[union-attr]

    return sorted(cards, key=key)


def legal_forms(legal: Sequence[Action], order: Sequence[Card] = ()) -> tuple[str, ...]:
    """The legal actions as typed, a suit choice grouped: ``JK demand S|H|D|C``; cards in
    the order of ``order`` (e.g. :func:`display_order` of the hand) when given."""
    if order:
        rank = {c: i for i, c in enumerate(order)}
        legal = sorted(legal, key=lambda a: rank.get(a.card, len(rank)) if isinstance(a, Play) else 0)
    out: list[str] = []
    groups: dict[str, list[str]] = {}
    for a in legal:
        if isinstance(a, Play) and a.suit is not None and a.as_card is None:
            head = f"{a.card} {a.declare}"
            if head not in groups:
                groups[head] = []
                out.append(head)
            groups[head].append(a.suit.value)
        else:
            out.append(action_text(a))
    return tuple(f"{o} {'|'.join(groups[o])}" if o in groups else o for o in out)


def _play_words(play: Play) -> list[str]:
    return str(play).split()


def _norm_word(word: str) -> str:
    """A declaration word as written in a play's text (``demand``, ``H``, ``QH``)."""
    low = word.lower()
    if low in DECLARATIONS or low == _PLAIN:
        return low
    try:
        return Suit.parse(word).value
    except CardError:
        pass
    try:
        return str(Card.parse(word))
    except CardError:
        return word


def _matching(forms: Sequence[Play], words: Sequence[str]) -> list[Play]:
    """Legal plays of one card whose text starts with ``words`` (``plain``: no declaration)."""
    if len(words) == 2 and words[1] == _PLAIN:
        return [p for p in forms if p.declare is None]
    return [p for p in forms if _play_words(p)[: len(words)] == list(words)]


def _question(words: Sequence[str], options: Sequence[Play]) -> str:
    """``JK: high or low?`` or ``JK demand: which suit? S, H, D, C``."""
    n = len(words)
    nexts: list[str] = []
    suited: set[str] = set()
    for p in options:
        w = _play_words(p)
        nxt = w[n] if len(w) > n else _PLAIN
        if nxt not in nexts:
            nexts.append(nxt)
        if len(w) > n + 1:
            suited.add(nxt)
    head = " ".join(words)
    if all(_is_suit_word(x) for x in nexts):
        return f"{head}: which suit? {', '.join(nexts)}"
    if n >= 2 and words[-1] == "as":
        return f"{head}: which card? {', '.join(nexts)}"
    text = ", ".join(nexts[:-1]) + " or " + nexts[-1] if len(nexts) > 1 else nexts[0]
    if suited and suited == set(nexts):
        return f"{head}: {text}, and a suit (e.g. {nexts[0]} H)?"
    return f"{head}: {text}?"


def _is_suit_word(word: str) -> bool:
    return word in {s.value for s in Suit}


def _invalid(message: str, hint: str | None = None, code: str | None = None,
             pending: str | None = None) -> Reply:
    return Reply("invalid", message=message, hint=hint, code=code, pending=pending)


def _refused(problem: Diagnostic, pending: str | None = None) -> Reply:
    return _invalid(problem.message, problem.hint, problem.code, pending)


def interpret(game: Game, text: str, pending: str | None = None) -> Reply:
    """What ``text``, typed by the player to act, means now (see :class:`Reply`).

    Forms: a bid (``2``, ``bid 2``, ``pass`` for 0), a card (``AS``, ``10h``, ``7♠``),
    a card with its declaration (``JK demand H``, ``JK high``, ``7S highest``), a suit
    or ``none`` when naming trump; ``?`` or ``help``; ``sheet``, ``table``; ``quit``.
    A card that can be played in more than one way is answered with a question
    (``ask``); the next line, given with ``pending``, answers it.
    """
    words = text.split()
    if not words:
        return _invalid("type a move (? lists them)", pending=pending)
    first = words[0].lower()
    if first in _HELP_WORDS and len(words) == 1:
        order = display_order(game.hand(game.to_act), game.trump, game.variant) \
            if game.phase is Phase.PLAY else ()
        return Reply("help", options=legal_forms(game.legal_actions(), order), pending=pending)
    if first in _QUIT_WORDS and len(words) == 1:
        return Reply("quit")
    if first in _SHOW_WORDS and len(words) == 1:
        return Reply("show", message=_SHOW_WORDS[first], pending=pending)
    phase = game.phase
    if phase is Phase.OVER:
        return _invalid("the game is over")
    if pending is not None and phase is Phase.PLAY:
        answer = _answer(game, pending, words)
        if answer is not None:
            return answer
    if phase is Phase.BID:
        return _read_bid(game, words)
    if phase is Phase.TRUMP:
        return _read_trump(game, words)
    if phase is Phase.PLAY:
        reply = _read_play(game, words)
        if pending is not None and reply.kind == "invalid":
            # Neither an answer to the question nor a move: ask the question again.
            forms = _card_forms(game, Card.parse(pending.split()[0]))
            question = _question(pending.split(), _matching(forms, pending.split()))
            if _is_card(words[0]):
                return _invalid(f"{reply.message}; {question}", hint=reply.hint, code=reply.code,
                                pending=pending)
            return _invalid(f"not an answer: {text.strip()!r}; {question}", pending=pending)
        return reply
    return _invalid(f"nobody can act in the {phase} phase")


def _read_bid(game: Game, words: list[str]) -> Reply:
    if words[0].lower() == "bid" and len(words) == 2:
        words = words[1:]
    lo, hi = game.bid_range()
    forbidden = game.forbidden_bid()
    allowed = f"a number from {lo} to {hi}" + (f", not {forbidden}" if forbidden is not None else "")
    if len(words) != 1:
        return _invalid(f"a bid is one number: {allowed}")
    word = words[0].lower()
    if word == "pass":
        word = "0"
    if not word.lstrip("+").isdigit():
        if _is_card(words[0]):
            return _invalid(f"it is your bid, not a card: type {allowed}")
        return _invalid(f"not a bid: {words[0]!r}; type {allowed}")
    bid = Bid(int(word))
    problem = game.check(bid)
    return _refused(problem) if problem is not None else Reply("action", bid)


def _read_trump(game: Game, words: list[str]) -> Reply:
    if words[0].lower() == "trump" and len(words) == 2:
        words = words[1:]
    options = legal_forms(game.legal_actions())
    if len(words) != 1:
        return _invalid(f"name trump with one word: {' '.join(options)}")
    word = words[0]
    if word.lower() in _NO_TRUMP_WORDS:
        choice = ChooseTrump(None)
    else:
        try:
            choice = ChooseTrump(Suit.parse(word))
        except CardError:
            return _invalid(f"not a suit: {word!r}; name trump: {' '.join(options)}")
    problem = game.check(choice)
    return _refused(problem) if problem is not None else Reply("action", choice)


def _is_card(word: str) -> bool:
    try:
        Card.parse(word)
    except CardError:
        return False
    return True


def _card_forms(game: Game, card: Card) -> list[Play]:
    return [a for a in game.legal_actions() if isinstance(a, Play) and a.card == card]


def _read_play(game: Game, words: list[str]) -> Reply:
    if words[0].lower() == "play" and len(words) >= 2:
        words = words[1:]
    try:
        card = Card.parse(words[0])
    except CardError as exc:
        d = exc.diagnostics[0]
        if words[0].isdigit():
            return _invalid(f"it is your turn to play a card, not to bid: {words[0]!r} is not a card",
                            hint="type a card, e.g. AS, 10H, 7♠")
        return _invalid(d.message, d.hint, d.code)
    card = _joker_alias(game, card)
    forms = _card_forms(game, card)
    typed = [str(card)] + [_norm_word(w) for w in words[1:]]
    if len(typed) > 1:
        options = _matching(forms, typed)
        exact = [p for p in options if len(_play_words(p)) == len(typed) or typed[-1] == _PLAIN]
        if len(exact) == 1:
            return Reply("action", exact[0])
        if options:
            return _ask(typed, options)
        # Not a legal way to play this card: let the rules say why.
        if typed[1:] == [_PLAIN]:
            play = Play(card)
        else:
            try:
                play = Play.parse(" ".join(typed))
            except CardError as exc:
                d = exc.diagnostics[0]
                return _invalid(d.message, d.hint, d.code)
        problem = game.check(play)
        if problem is None:  # pragma: no cover - legal plays are all listed
            return Reply("action", play)
        return _refused(problem)
    if not forms:
        problem = game.check(Play(card))
        if problem is None:  # pragma: no cover - legal plays are all listed
            return Reply("action", Play(card))
        if problem.code == "R013":  # the engine names the seat; the player is "you"
            return _invalid(f"you do not hold {card}", code=problem.code)
        return _refused(problem)
    if len(forms) == 1:
        return Reply("action", forms[0])
    return _ask([str(card)], forms)


def _joker_alias(game: Game, card: Card) -> Card:
    """``JK`` for the one card the variant makes a joker (when the pack has no real joker)."""
    designated = game.variant.deck.designated_jokers
    if card.is_joker and card not in game.table.index and len(designated) == 1:
        return designated[0]
    return card


def _ask(words: Sequence[str], options: Sequence[Play]) -> Reply:
    return Reply("ask", message=_question(words, options), options=legal_forms(options),
                 pending=" ".join(words))


def _answer(game: Game, pending: str, words: list[str]) -> Reply | None:
    """The answer to a question about ``pending`` (None: the line is not an answer)."""
    base = pending.split()
    try:
        card = Card.parse(base[0])
    except CardError:
        return None
    if len(words) >= 1 and _is_card(words[0]) and not _is_suit_word(_norm_word(words[0])):
        return None  # a card: a new move, not an answer
    forms = _card_forms(game, card)
    typed = base + [_norm_word(w) for w in words]
    options = _matching(forms, typed)
    if not options:
        return None
    exact = [p for p in options if len(_play_words(p)) == len(typed) or typed[-1] == _PLAIN]
    if len(exact) == 1:
        return Reply("action", exact[0])
    return _ask(typed, options)


def prompt_text(game: Game, pending: str | None = None) -> str:
    """What the player to act is asked for: ``your bid (0-3, not 2)``, ``your card``, ..."""
    if pending is not None:
        forms = _card_forms(game, Card.parse(pending.split()[0])) if game.phase is Phase.PLAY else []
        options = _matching(forms, pending.split())
        if options:
            return _question(pending.split(), options)
    phase = game.phase
    if phase is Phase.BID:
        lo, hi = game.bid_range()
        forbidden = game.forbidden_bid()
        return f"your bid ({lo}-{hi}" + (f", not {forbidden})" if forbidden is not None else ")")
    if phase is Phase.TRUMP:
        return "name trump (" + " ".join(legal_forms(game.legal_actions())) + ")"
    if phase is Phase.PLAY:
        return "your card" if game.trick else "your lead"
    return "?"


# ============================================================================ the record


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


class ResumeError(ValueError):
    """A record that cannot be resumed; ``diagnostics`` say why when the checker found errors."""

    def __init__(self, message: str, diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics)


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
    ) -> Session:
        """A new game. ``save``: a file to write the record to (refused when it exists,
        unless ``force``) or an open text stream.

        :raises ValueError: for bad names, seats or player count.
        :raises FileExistsError: when ``save`` exists and ``force`` is not given.
        """
        n = players if players is not None else variant.default_players
        humans = frozenset(humans)
        all_names = seat_names(n, humans, list(names))
        make_bot(bot)  # an unknown bot name fails here, before any file is made
        if seed is None:
            seed = random.SystemRandom().randrange(1, 10**9)
        game = Game(variant, n, seed=seed, first_dealer=first_dealer, auto_deal=False)
        session = cls(game, all_names, humans, bot, seed, None, 0, variant_label)
        if save is not None:
            stream = _open_new(save, force) if isinstance(save, (str, os.PathLike)) else save
            session.record = RecordWriter(stream, all_names)
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
    ) -> Session:
        """Continue the game recorded in ``path`` (written by ``updown play`` or any
        full-level record), appending to the same file (``append``).

        Human seats and the bot come from the record's ``_human`` (or ``_watch``: no
        human) and ``_bot`` header lines unless given; a record without them is
        resumed with a human in the first seat and the heuristic bot.

        :raises ResumeError: when the record cannot be read, has errors, is not at the
            full level, or is of a finished game.
        """
        from ..records.checker import check_transcript, transcript_variant

        name = str(path)
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise ResumeError(f"cannot read {name}: {exc.strerror or exc}") from None
        t, diags = parse_transcript(data, name)
        if t is None:
            raise ResumeError(f"{name} is not a game record", diags)
        report = check_transcript(t, diags)
        problems = [d for d in report.diagnostics if d.severity == Severity.ERROR]
        if not report.readable or problems:
            raise ResumeError(f"{name} has errors: it cannot be resumed",
                              problems or list(report.diagnostics))
        if report.finished:
            raise ResumeError(f"the game in {name} is over: there is nothing to resume")
        if t.level != "full":
            raise ResumeError(f"{name} is a {t.level}-level record: only a full record (with the "
                              "hands) can be resumed")
        variant, vdiags = transcript_variant(t)
        if variant is None:  # pragma: no cover - the checker refused it already
            raise ResumeError(f"cannot load the variant of {name}", vdiags)
        seed_text = t.header("seed")
        try:
            seed = int(seed_text) if seed_text is not None else 0
        except ValueError:
            raise ResumeError(f"{name}: the seed {seed_text!r} is not a whole number") from None
        if humans is None:
            written = t.header(HUMAN_KEY)
            if written is not None:
                humans = [s for s in (seat_of(t.players, w) for w in written.split()) if s is not None]
            else:  # nobody (a watched game) or, in a record from elsewhere, the first seat
                humans = [] if t.header(WATCH_KEY) is not None else [0]
        if bot is None:
            bot = t.header(BOT_KEY) or "heuristic"
        make_bot(bot)
        game, actions = rebuild(t, variant, seed)
        session = cls(game, t.players, frozenset(humans), bot, seed, None, actions, t.variant)
        session.deal_if_needed()
        events = [format_event(e, t.players) for e in game_events(game, "full")]
        body = [format_event(e.replace(comment=None), t.players) for e in t.events
                if e.kind not in ("comment", "raw")]
        if events[: len(body)] != body:
            raise ResumeError(f"{name} is not written as `updown play` writes a game: it cannot be "
                              "continued in the same file")
        if append:
            stream = open(path, "a", encoding="utf-8", newline="\n")
            if data and not data.endswith(b"\n"):
                stream.write("\n")
            session.record = RecordWriter(stream, t.players, written=len(body),
                                          last=body[-1] if body else None)
            session.record.sync(game)
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
                            level="full", extra=extra)

    def transcript(self) -> Transcript:
        """The record of the game so far (what the file holds)."""
        from ..records.record import game_transcript

        extra = [(h.key, h.value) for h in self.headers() if h.key in ("seed", HUMAN_KEY, WATCH_KEY, BOT_KEY)]
        return game_transcript(self.game, self.names, level="full", variant=self.variant_label,
                               extra=extra)

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
        return bot.act(self.game.view(seat))

    def apply(self, action: Action) -> Step:
        """Take ``action`` for the seat to act, write it, deal on if a deal ended.

        :raises IllegalAction: naming the rule when it is not legal.
        """
        game = self.game
        seat = game.to_act
        results = len(game.results)
        tricks = len(game.tricks)
        game.apply(action)
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
        step = Step(seat, action, seat not in self.humans, trick, number, result, game.is_over)
        # Deal on before writing: a blind deal's bids are written with its cards (the
        # record has no place for them while the cards are still to come).
        if not self.deal_if_needed() and self.record is not None:
            self.record.sync(game)
        return step

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
                action = self.ask(frontend, seat)
                if action is None:
                    return "stopped"
            else:
                action = self.bot_action(seat)
            frontend.step(self, self.apply(action))
        return "over"

    def ask(self, frontend: Frontend, seat: int) -> Action | None:
        """Ask ``seat`` until it gives a legal action (None: end of input or ``quit``)."""
        frontend.turn(self, seat)
        pending: str | None = None
        while True:
            line = frontend.read(self, seat, self.prompt(pending))
            if line is None:
                return None
            reply = self.interpret(line, pending)
            if reply.kind == "action":
                return reply.action
            if reply.kind == "quit":
                return None
            pending = reply.pending
            frontend.reply(self, seat, reply)


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


__all__ = [
    "BOT_NAMES",
    "Frontend",
    "HUMAN_NAME",
    "RecordWriter",
    "Reply",
    "ResumeError",
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
