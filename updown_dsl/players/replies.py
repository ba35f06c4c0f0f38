"""What a player types at the table: reading a line as a bid, a trump or a card, and the prompt.

Nothing here prints or reads: :func:`interpret` turns one line of text into a :class:`Reply`
(an action, a question back, help, or a refusal with the reason), for the terminal and tests alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..actions import DECLARATIONS, Action, Bid, Call, ChooseTrump, Play
from ..cards import SUIT_ORDER, Card, CardError, Rank, Suit, card_text, suit_text
from ..diagnostics import Diagnostic
from ..engine import Game, Phase
from ..i18n import card_letters, tr
from ..lang.variant import Variant

# The Russian words are read whatever the language of the screen.
_HELP_WORDS = {"?", "help", "помощь"}
_QUIT_WORDS = {"quit", "exit", "выход"}
_HINT_WORDS = {"hint", "??", "подсказка"}
_UNDO_WORDS = {"undo", "отмена", "назад"}
_REDEAL_WORDS = {"redeal", "пересдача", "пересдать"}
_SHOW_WORDS = {"sheet": "sheet", "score": "sheet", "scores": "sheet", "table": "table", "hand": "table",
               "запись": "sheet", "стол": "table"}
_NO_TRUMP_WORDS = {"none", "nt", "no", "notrump", "no-trump", "бк", "без", "бескозырка"}
_BID_WORDS = {"bid", "заказ"}
_PASS_WORDS = {"pass", "пас"}
_PLAIN = "plain"
#: The words of a move at a Russian table, as shown and as read (read whatever the language).
_RU_WORDS = {"demand": "хочу", "high": "старший", "low": "младший", "takes": "берёт", "highest": "высший",
             "free": "свободно", "open": "открыто", "as": "как", _PLAIN: "просто", "none": "бк",
             "dash": "прочерк"}
_FROM_RU = {v: k for k, v in _RU_WORDS.items()} | {"берет": "takes", "старшая": "high", "младшая": "low"}


def _letters(letters: str | None) -> str:
    return card_letters() if letters is None else letters


def shown_word(word: str, letters: str | None = None) -> str:
    """A word of a move (``high``, ``H``, ``QH``, ``none``) in the letters of the table: ``старший``,
    ``ч``, ``Дч``, ``бк`` in ``ru``; as it is in ``en``."""
    if _letters(letters) == "en":
        return word
    if word in _RU_WORDS:
        return _RU_WORDS[word]
    if word in {s.value for s in Suit}:
        return suit_text(Suit(word), "ru")
    try:
        return card_text(Card.parse(word), "ru")
    except CardError:
        return word


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
    * ``quit``: stop the game here (it can be resumed);
    * ``hint``: the player asks for a suggestion (``hint``, ``??``, or ``?`` twice in a row);
      the session answers it (:meth:`~updown_dsl.players.session.Session.hint`) with a
      ``hint`` reply whose ``action`` is the suggestion and ``message`` the reason;
    * ``undo``: the player takes back its last decision of the deal
      (:meth:`~updown_dsl.players.session.Session.take_back`); answered with an ``undone`` reply;
    * ``redeal``: the player, void in a suit, asks for the deal again where the rules allow it
      (:meth:`~updown_dsl.players.session.Session.redeal`); answered with a ``redealt`` reply;
    * ``forced``: ``action`` is the only legal one, taken for the player without asking
      (:attr:`~updown_dsl.players.session.Session.autoplay`).
    """

    kind: str
    action: Action | None = None
    message: str = ""
    code: str | None = None
    hint: str | None = None
    options: tuple[str, ...] = ()
    pending: str | None = None


def action_text(action: Action, letters: str | None = None) -> str:
    """An action as a player types it: ``2``, ``AS``, ``JK demand H``, ``H``, ``none``; in the
    letters of a Russian table (``letters`` ``ru``, by default when the language is Russian):
    ``Тп``, ``Дж хочу ч``, ``ч``, ``бк``."""
    if isinstance(action, Bid):
        return str(action.tricks)
    if isinstance(action, ChooseTrump):
        text = "none" if action.suit is None else action.suit.value
    elif isinstance(action, Call):
        text = "dash" if not action.tricks else f"{action.tricks} {action.suit.value if action.suit else 'none'}"
    else:
        text = str(action)
    return " ".join(shown_word(w, letters) for w in text.split())


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


def legal_forms(legal: Sequence[Action], order: Sequence[Card] = (), letters: str | None = None) -> tuple[str, ...]:
    """The legal actions as typed, a suit choice grouped: ``JK demand S|H|D|C``; cards in
    the order of ``order`` (e.g. :func:`display_order` of the hand) when given; in the
    letters of the table (see :func:`action_text`)."""
    if order:
        rank = {c: i for i, c in enumerate(order)}
        legal = sorted(legal, key=lambda a: rank.get(a.card, len(rank)) if isinstance(a, Play) else 0)
    out: list[str] = []
    groups: dict[str, list[str]] = {}
    for a in legal:
        if isinstance(a, Play) and a.suit is not None and a.as_card is None:
            head = f"{shown_word(str(a.card), letters)} {shown_word(a.declare or '', letters)}"
            if head not in groups:
                groups[head] = []
                out.append(head)
            groups[head].append(shown_word(a.suit.value, letters))
        else:
            out.append(action_text(a, letters))
    return tuple(f"{o} {'|'.join(groups[o])}" if o in groups else o for o in out)


def _play_words(play: Play) -> list[str]:
    return str(play).split()


def _norm_word(word: str) -> str:
    """A declaration word as written in a play's text (``demand``, ``H``, ``QH``)."""
    low = word.lower()
    low = _FROM_RU.get(low, low)
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
    head = " ".join(shown_word(w) for w in words)
    shown = [shown_word(x) for x in nexts]
    if all(_is_suit_word(x) for x in nexts):
        return tr("{play}: which suit? {suits}", play=head, suits=", ".join(shown))
    if n >= 2 and words[-1] == "as":
        return tr("{play}: which card? {cards}", play=head, cards=", ".join(shown))
    text = tr("{words} or {last}", words=", ".join(shown[:-1]), last=shown[-1]) if len(shown) > 1 else shown[0]
    if suited and suited == set(nexts):
        return tr("{play}: {choices}, and a suit (e.g. {first} {suit})?", play=head, choices=text, first=shown[0],
                  suit=shown_word("H"))
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

    Forms: a bid (``2``, ``bid 2``, ``pass`` for 0), a call of an auction (``5 S``, ``6 none``,
    ``dash``), a card (``AS``, ``10h``, ``7♠``),
    a card with its declaration (``JK demand H``, ``JK high``, ``7S highest``), a suit
    or ``none`` when naming trump; ``?`` or ``help``; ``hint`` (``??``); ``undo``; ``redeal``; ``sheet``,
    ``table``; ``quit``.
    A card that can be played in more than one way is answered with a question
    (``ask``); the next line, given with ``pending``, answers it.
    """
    words = text.split()
    if not words:
        return _invalid(tr("type a move (? lists them)"), pending=pending)
    if game.phase is Phase.PLAY:
        words = _card_in_words(words)
    first = words[0].lower()
    if first in _HELP_WORDS and len(words) == 1:
        order = display_order(game.hand(game.to_act), game.trump, game.variant) \
            if game.phase is Phase.PLAY else ()
        return Reply("help", options=legal_forms(game.legal_actions(), order), pending=pending)
    if first in _QUIT_WORDS and len(words) == 1:
        return Reply("quit")
    if first in _HINT_WORDS and len(words) == 1:
        return Reply("hint", pending=pending)
    if first in _UNDO_WORDS and len(words) == 1:
        return Reply("undo")
    if first in _REDEAL_WORDS and len(words) == 1:
        return Reply("redeal")
    if first in _SHOW_WORDS and len(words) == 1:
        return Reply("show", message=_SHOW_WORDS[first], pending=pending)
    phase = game.phase
    if phase is Phase.OVER:
        return _invalid(tr("the game is over"))
    if pending is not None and phase is Phase.PLAY:
        answer = _answer(game, pending, words)
        if answer is not None:
            return answer
    if phase is Phase.BID:
        return _read_bid(game, words)
    if phase is Phase.TRUMP:
        return _read_trump(game, words)
    if phase is Phase.AUCTION:
        return _read_call(game, words)
    if phase is Phase.PLAY:
        reply = _read_play(game, words)
        if pending is not None and reply.kind == "invalid":
            # Neither an answer to the question nor a move: ask the question again.
            forms = _card_forms(game, Card.parse(pending.split()[0]))
            question = _question(pending.split(), _matching(forms, pending.split()))
            if _is_card(words[0]):
                return _invalid(f"{reply.message}; {question}", hint=reply.hint, code=reply.code,
                                pending=pending)
            return _invalid(tr("not an answer: {text!r}; {question}", text=text.strip(), question=question),
                            pending=pending)
        return reply
    return _invalid(tr("nobody can act in the {phase} phase", phase=phase))


def _card_in_words(words: list[str]) -> list[str]:
    """``дама пик high`` → ``QS high``: a card named in two words becomes its token."""
    if len(words) > 2 and words[0].lower() in ("play", "ход"):
        return [words[0], *_card_in_words(words[1:])]
    if len(words) < 2 or _is_card(words[0]):
        return words
    try:
        card = Card.parse(f"{words[0]} {words[1]}")
    except CardError:
        return words
    return [str(card), *words[2:]]


def _read_bid(game: Game, words: list[str]) -> Reply:
    if words[0].lower() in _BID_WORDS and len(words) == 2:
        words = words[1:]
    lo, hi = game.bid_range()
    forbidden = game.forbidden_bid()
    allowed = tr("a number from {lo} to {hi}", lo=lo, hi=hi) + (
        tr(", not {bid}", bid=forbidden) if forbidden is not None else "")
    if len(words) != 1:
        return _invalid(tr("a bid is one number: {allowed}", allowed=allowed))
    word = words[0].lower()
    if word in _PASS_WORDS:
        word = "0"
    if not word.lstrip("+").isdigit():
        if _is_card(words[0]):
            return _invalid(tr("it is your bid, not a card: type {allowed}", allowed=allowed))
        return _invalid(tr("not a bid: {word!r}; type {allowed}", word=words[0], allowed=allowed))
    bid = Bid(int(word))
    problem = game.check(bid)
    return _refused(problem) if problem is not None else Reply("action", bid)


def _call_forms(game: Game) -> str:
    calls = [a for a in game.legal_actions() if isinstance(a, Call) and a.tricks]
    trumps = " ".join(dict.fromkeys(action_text(c).split()[1] for c in calls))
    dash = any(isinstance(a, Call) and not a.tricks for a in game.legal_actions())
    text = tr("{lo}-{hi} with a trump ({trumps})", lo=calls[0].tricks, hi=calls[-1].tricks, trumps=trumps) \
        if calls else ""
    return text + (tr(", or dash") if dash else "")


def _read_call(game: Game, words: list[str]) -> Reply:
    """``5 S``, ``call 5 none``, ``6 NT``, ``dash``."""
    if words[0].lower() == "call" and len(words) > 1:
        words = words[1:]
    if len(words) == 1 and words[0].lower() in ("dash", "0", "прочерк"):
        call = Call(0)
    elif len(words) == 2 and words[0].lstrip("+").isdigit():
        word = words[1]
        if word.lower() in _NO_TRUMP_WORDS:
            call = Call(int(words[0]))
        else:
            try:
                call = Call(int(words[0]), Suit.parse(word))
            except CardError:
                return _invalid(tr("not a trump: {word!r}; call {options}", word=word, options=_call_forms(game)))
    else:
        return _invalid(tr("a call is a number of tricks and a trump, e.g. '5 S' or '6 none', or 'dash': "
                           "call {options}", options=_call_forms(game)))
    problem = game.check(call)
    return _refused(problem) if problem is not None else Reply("action", call)


def _read_trump(game: Game, words: list[str]) -> Reply:
    if words[0].lower() == "trump" and len(words) == 2:
        words = words[1:]
    options = legal_forms(game.legal_actions())
    if len(words) != 1:
        return _invalid(tr("name trump with one word: {options}", options=" ".join(options)))
    word = words[0]
    if word.lower() in _NO_TRUMP_WORDS:
        choice = ChooseTrump(None)
    else:
        try:
            choice = ChooseTrump(Suit.parse(word))
        except CardError:
            return _invalid(tr("not a suit: {word!r}; name trump: {options}", word=word, options=" ".join(options)))
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
    if words[0].lower() in ("play", "ход") and len(words) >= 2:
        words = words[1:]
    try:
        card = Card.parse(words[0])
    except CardError as exc:
        meant = _rank_or_suit_alone(game, words[0])
        if isinstance(meant, Card):
            return _read_play(game, [str(meant), *words[1:]])
        if meant:
            return _invalid(tr("{word}: which card? {cards}", word=words[0],
                               cards=" ".join(card_text(c, card_letters()) for c in meant)))
        d = exc.diagnostics[0]
        if words[0].isdigit():
            return _invalid(tr("it is your turn to play a card, not to bid: {word!r} is not a card", word=words[0]),
                            hint=tr("type a card, e.g. AS, 10H, 7♠"))
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
        if forms:  # the card can be played, but not so: say how it can (in the table's words)
            return _invalid(tr("{play} is not allowed now; {card} can be played as {options}",
                               play=" ".join(shown_word(w) for w in typed), card=shown_word(str(card)),
                               options="  ".join(legal_forms(forms))), code=problem.code)
        return _refused(problem)
    if not forms:
        problem = game.check(Play(card))
        if problem is None:  # pragma: no cover - legal plays are all listed
            return Reply("action", Play(card))
        if problem.code == "R013":  # the engine names the seat; the player is "you"
            return _invalid(tr("you do not hold {card}", card=card.pretty(card_letters())), code=problem.code)
        return _refused(problem)
    if len(forms) == 1:
        return Reply("action", forms[0])
    return _ask([str(card)], forms)


def _rank_or_suit_alone(game: Game, word: str) -> Card | list[Card]:
    """The legal card a rank alone (``K``, ``10``, ``К``) or a suit alone (``H``, ``♥``, ``ч``)
    means: the one card, or the several it may mean (none: the word is neither, or no legal card)."""
    ranks: set[Rank] = set()
    suits: set[Suit] = set()
    try:
        rank = Card.parse(word.strip() + "S").rank  # the rank of the word: its spade
        if rank is not None:
            ranks.add(rank)
    except CardError:
        pass
    try:
        suits.add(Suit.parse(word))
    except CardError:
        pass
    cards = list(dict.fromkeys(a.card for a in game.legal_actions() if isinstance(a, Play)))
    meant = [c for c in cards if not c.is_joker and (c.rank in ranks or c.suit in suits)]
    return meant[0] if len(meant) == 1 else meant


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
        return (tr("your bid ({lo}-{hi}, not {bid})", lo=lo, hi=hi, bid=forbidden) if forbidden is not None
                else tr("your bid ({lo}-{hi})", lo=lo, hi=hi))
    if phase is Phase.TRUMP:
        return tr("name trump ({options})", options=" ".join(legal_forms(game.legal_actions())))
    if phase is Phase.AUCTION:
        return tr("your call ({options})", options=_call_forms(game))
    if phase is Phase.PLAY:
        return tr("your card") if game.trick else tr("your lead")
    return "?"
