"""Every variant as an OpenSpiel game, ``python_updown`` (needs ``open_spiel``).

Importing this module registers the game; then::

    game = pyspiel.load_game("python_updown", {"variant": VARIANT, "players": 4})   # a bundled name or a path

Parameters: ``variant`` (a bundled name or a path; required), ``players`` (0: the variant's default),
``start_deal`` (0-based deal of the schedule to start at) and ``deals`` (deals to play, 0: the
whole game). Actions are the numbers of :class:`~updown_dsl.research.space.ActionSpace`;
a deal is dealt by chance nodes, one card of the pack at a time (an outcome is a card's index
in the pack), in the order :meth:`~updown_dsl.engine.Game.deal_from_order` deals them, then
the card after the hands is turned. ``returns()`` are each seat's points in the deals played
(with ``start_deal=0, deals=0``: the game's totals, set premiums and penalties included).

What is not a chance node: a random trump (``trump.rule: random``) is drawn from the state's
own generator (seeded, so a history always gives the same game), and the cut of Russian
poker's cut rule is not made. The information-state tensor is the observation of
:class:`~updown_dsl.research.space.Observation` and one more block, ``played_by``: which
relative seat played each card of the deal; the information-state string is the seat's own
history (every public action) and the cards its seat's view shows it now.
"""

from __future__ import annotations

import random
from typing import Any, cast

import numpy as np
import pyspiel

from ..actions import Bid
from ..engine import Game, IllegalAction, Phase
from ..engine.worlds import game_at_deal
from ..lang.loader import load_variant
from ..engine.tables import bit_indices
from ..players.sampling import Sampler
from .space import ActionSpace, Observation

SHORT_NAME = "python_updown"
_MAX_PLAYERS = 10
_PARAMS = {"variant": "", "players": 0, "start_deal": 0, "deals": 0}
_SECRET_BIDS = ("sealed", "hidden")

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="updown: exact-bid trick-taking games (any variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


class UpdownGame(pyspiel.Game):  # type: ignore[misc]
    """A variant at a table size as an OpenSpiel game (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        if not p["variant"]:
            raise ValueError("python_updown needs a variant: a bundled name or a path")
        self.variant = load_variant(str(p["variant"]))
        self.n = int(p["players"]) or self.variant.default_players
        self.start_deal = int(p["start_deal"])
        self.deal_count = int(p["deals"])
        self.space = ActionSpace(self.variant, self.n)
        self.encoding = Observation(self.variant, self.n, self.space)
        probe = Game(self.variant, self.n, seed=0, auto_deal=False)
        self.pack = probe.table.size
        deals = list(probe.deals)[self.start_deal:]
        if self.deal_count:
            deals = deals[:self.deal_count]
        # a game's length: every card drawn, every trump choice, call, bid and card played;
        # extra deals (a target score not reached) are allowed for by doubling
        length = sum(self.pack + 2 * self.n + 1 + d.cards * self.n for d in deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.pack,
            num_players=self.n,
            min_utility=-100000.0,
            max_utility=100000.0,
            max_game_length=2 * length,
        )
        super().__init__(_GAME_TYPE, info, p)
        self.params = dict(self.get_parameters())
        rng = random.Random(0)  # a random trump is drawn from it: the same history, the same game
        if self.start_deal:
            self.start = game_at_deal(self.variant, self.n, self.start_deal, self.n - 1 + self.start_deal, rng=rng)
        else:
            self.start = Game(self.variant, self.n, rng=rng, auto_deal=False)
        self.info_observer = UpdownObserver(self, True)
        self.observer = UpdownObserver(self, False)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        # the variant holds compiled formulas that do not pickle: a game pickles as its parameters
        return (UpdownGame, (dict(self.get_parameters()),))

    def __deepcopy__(self, memo: dict[int, Any]) -> UpdownGame:
        return self  # a game does not change: a copied state shares it

    def new_initial_state(self) -> UpdownState:
        """The start of an episode: the first deal's cards to be dealt."""
        return UpdownState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> UpdownObserver:
        """An observer: the information state when perfect recall is asked for, else the observation."""
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return UpdownObserver(self, recall)


class _Box:
    """Holds a state's updown game: OpenSpiel copies a Python state with ``copy.deepcopy``
    (an updown game copies with :meth:`~updown_dsl.engine.Game.clone`) and serializes it
    by pickling its attributes (a game pickles as the game's parameters and the actions
    applied to it, and is played again when read)."""

    __slots__ = ("game", "params", "history")

    def __init__(self, game: Game, params: dict[str, Any], history: list[int]) -> None:
        self.game = game
        self.params = params
        self.history = history

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.game.clone(), self.params, list(self.history))

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any], list[int]]]:
        return (_box_from, (self.params, self.history))


def _box_from(params: dict[str, Any], history: list[int]) -> _Box:
    return _restore(params, history).holder


class UpdownState(pyspiel.State):  # type: ignore[misc]
    """A position of :class:`UpdownGame`: an updown :class:`~updown_dsl.engine.Game` and the
    cards drawn so far for the deal being dealt."""

    def __init__(self, game: UpdownGame) -> None:
        super().__init__(game)
        self.ugame = game
        # OpenSpiel makes a new state for every copy of one: a copy of the start is cheaper
        self.holder = _Box(game.start.clone(), game.params, [])
        self.drawn: list[int] = []
        self.first_leader = -1
        """Who led the first trick of the current deal."""
        self.first_result = len(self.game.results)
        self.events: list[tuple[int, str, str]] = []
        """The information-state string's events: (the one seat that sees the text, or -1 for
        every seat; the text; what the others see)."""
        self._done = False

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any], list[int]]]:
        # a state pickles as its game's parameters and its history (a variant does not pickle)
        return (_restore, (dict(self.ugame.get_parameters()), list(self.history())))

    @property
    def game(self) -> Game:
        """The updown game of this state."""
        return self.holder.game

    # ------------------------------------------------------------------ the tree
    def current_player(self) -> int:
        if self._done:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.game.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return self.game.to_act

    def _need(self) -> int:
        """Cards drawn for the deal: the hands and the turned card (when the pack has one)."""
        return min(self.ugame.pack, self.ugame.n * self.game.deal.cards + 1)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.ugame.space.legal_ids(self.game))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        taken = set(self.drawn)
        rest = [i for i in range(self.ugame.pack) if i not in taken]
        p = 1.0 / len(rest)
        return [(i, p) for i in rest]

    def _apply_action(self, action: int) -> None:
        game = self.game
        n = self.ugame.n
        self.holder.history.append(action)
        if game.phase is Phase.DEAL:
            j = len(self.drawn)
            self.drawn.append(action)
            cards = n * game.deal.cards
            if j < cards:
                # which card: not in the history, but in what the seat sees (``_sees``), as its view shows it
                self.events.append((-1, f"deal {(game.eldest + j) % n} ?", ""))
            if len(self.drawn) == self._need():
                game.deal_from_order([game.table.cards[i] for i in self.drawn])
                self.drawn = []
                if game.turned is not None:
                    self.events.append((-1, f"turned {game.turned}", ""))
            return
        seat = game.to_act
        if game.phase is Phase.PLAY and not game.kernel.order:
            self.first_leader = seat
        act = self.ugame.space.actions[action]
        secret = isinstance(act, Bid) and game.kind.bidding in _SECRET_BIDS
        sealed = game.kind.bidding == "sealed"
        game.apply(act)
        self.events.append((seat if secret else -1, f"{seat}: {act}", f"{seat}: bid ?"))
        if sealed and game.phase is Phase.PLAY and secret:
            self.events.append((-1, "bids " + " ".join(str(b) for b in game.bids), ""))
        played = len(game.results) - self.first_result
        if game.is_over or (self.ugame.deal_count and played >= self.ugame.deal_count):
            self._done = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            t = self.game.table
            second = t.seconds >> action & 1  # (two packs: the chance outcomes are the copies)
            return f"deal {t.cards[action]}" + (" (second copy)" if second else "")
        return str(self.ugame.space.actions[action])

    def is_terminal(self) -> bool:
        return self._done

    def returns(self) -> list[float]:
        """Each seat's points in the deals played (zero until the end: terminal rewards)."""
        out = [0.0] * self.ugame.n
        if not self._done:
            return out
        for r in self.game.results[self.first_result:]:
            for s in range(self.ugame.n):
                out[s] += r.total(s)
        return out

    def rewards(self) -> list[float]:
        """The returns at the end, zero before (OpenSpiel's terminal reward model)."""
        return self.returns()

    # Called from Python these skip OpenSpiel's observer path, which copies the state first;
    # C++ algorithms get the same values through make_py_observer.
    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of ``player`` (default: the player to act)."""
        return self._tensor(self.ugame.info_observer, player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of ``player`` (default: the player to act)."""
        return self._tensor(self.ugame.observer, player)

    def _tensor(self, observer: UpdownObserver, player: int | None) -> list[float]:
        values = [0.0] * observer.size
        observer.write(self, self.current_player() if player is None else player, values)
        return values

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> UpdownState:
        """A state ``player_id`` cannot tell from this one, for ISMCTS: the same history with
        the cards it has not seen dealt again and the bids it has not seen (sealed or hidden
        ones of this deal) made again. The other hands are guessed by
        :class:`~updown_dsl.players.sampling.Sampler` from the seat's view (never a card of a
        suit a seat has shown void in, nor one a joker's demand rules out: :meth:`~updown_dsl.players.sampling.Sampler.sample_within`), each seat's guess
        laid on the positions of the deal that seat was dealt; a guess the replayed history
        does not take (or that changes the seat's legal actions) is drawn again. The guesses
        come from a generator seeded by ``probability_sampler``, never from the true hands.

        :raises RuntimeError: when no guess fits after many tries (not seen in the tests).
        """
        rnd = random.Random(int(probability_sampler() * 2.0**53))
        plan = _Resample(self, player_id)
        for _ in range(_RESAMPLE_TRIES):
            state = plan.replay(plan.draws(rnd), rnd)
            if state is not None:
                return state
        raise RuntimeError(f"no deal fits what player {player_id} has seen")

    def __str__(self) -> str:
        return str(self.game)


def _restore(params: dict[str, Any], history: list[int]) -> UpdownState:
    state = UpdownGame(params).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


_RESAMPLE_TRIES = 200


class _Resample:
    """What a resampling keeps and what it draws again (see
    :meth:`UpdownState.resample_from_infostate`)."""

    def __init__(self, state: UpdownState, player: int) -> None:
        self.state = state
        self.player = player
        ugame = state.ugame
        self.n = n = ugame.n
        game = state.game
        self.history: list[int] = list(state.history())
        self.legal = state.legal_actions() if not state.is_terminal() else []
        # the current deal's draws: the last run of chance actions when the deal is dealt or
        # being dealt (none yet for a deal bid before it is dealt)
        chance = [a.player == pyspiel.PlayerId.CHANCE for a in state.full_history()]
        dealt = (any(game.dealt_hands) or bool(state.drawn)) and any(chance)
        self.start = self.stop = len(self.history)
        if dealt:
            stop = len(chance)
            while not chance[stop - 1]:
                stop -= 1
            start = stop
            while start > 0 and chance[start - 1]:
                start -= 1
            self.start, self.stop = start, stop
        draws = self.history[self.start:self.stop]
        cards = n * game.deal.cards
        self.cards = cards
        eldest = game.eldest
        self.seat_of = [(eldest + j) % n if j < cards else -1 for j in range(len(draws))]
        self.old = draws
        self.sampler: Sampler | None = None
        if dealt and not state.drawn:
            self.sampler = Sampler(game.view(player))
            self.played_by = game.kernel.log.played_by()
        self.deal_index = game.deal_index
        secret = game.kind.bidding
        self.secret_bids = secret == "hidden" or (secret == "sealed" and game.phase is Phase.BID)

    def draws(self, rnd: random.Random) -> list[int]:
        """The current deal's chance outcomes, the unseen cards guessed again."""
        old = self.old
        new = list(old)
        player, seat_of = self.player, self.seat_of
        if self.sampler is None:  # still dealing: the player's cards so far stay, the rest is any card
            mine = {a for j, a in enumerate(old) if seat_of[j] == player}
            pool = [i for i in range(self.state.ugame.pack) if i not in mine]
            rnd.shuffle(pool)
            for j in range(len(old)):
                if seat_of[j] != player:
                    new[j] = pool.pop()
            return new
        # every seat's unseen cards, the player's own too where its view shows only part of its
        # hand (a trump chosen from the first cards, a blind deal): each laid on that seat's places
        hands = self.sampler.sample_within(rnd)
        for s in range(self.n):
            dealt = hands[s] | self.played_by[s]
            slots = [j for j in range(len(old)) if seat_of[j] == s]
            keep = 0
            for j in slots:
                if (dealt >> old[j]) & 1:
                    keep |= 1 << old[j]
            fresh = bit_indices(dealt & ~keep)
            rnd.shuffle(fresh)
            for j in slots:
                if not (keep >> old[j]) & 1:
                    new[j] = fresh.pop()
        return new

    def replay(self, draws: list[int], rnd: random.Random) -> UpdownState | None:
        """The history with ``draws`` for the current deal's (and unseen bids drawn again), or
        None when it does not replay to a state the player sees as this one."""
        hist = self.history
        state = self.state.ugame.new_initial_state()
        space = self.state.ugame.space
        try:
            for k, a in enumerate(hist[:self.start] + draws + hist[self.stop:]):
                game = state.game
                if (k >= self.stop and self.secret_bids and game.phase is Phase.BID
                        and game.deal_index == self.deal_index and game.to_act != self.player):
                    a = rnd.choice([b for b in state.legal_actions() if isinstance(space.actions[b], Bid)])
                state.apply_action(a)
        except (IllegalAction, KeyError, IndexError, ValueError, pyspiel.SpielError):
            return None
        if self.state.is_terminal() or self.state.is_chance_node():
            return state
        if state.is_terminal() or state.legal_actions() != self.legal:
            return None
        return state




class UpdownObserver:
    """The tensors and strings of :class:`UpdownState` (OpenSpiel's observer protocol)."""

    def __init__(self, game: UpdownGame, recall: bool) -> None:
        self.encoding = game.encoding
        self.recall = recall
        self.n = game.n
        self.pack = game.pack
        self.size = size = self.encoding.size + (self.n * self.pack if recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UpdownState, player: int) -> None:
        self.tensor.fill(0)
        self.write(state, player, self.tensor)

    def write(self, state: UpdownState, player: int, t: Any) -> None:
        """Write ``player``'s tensor into ``t`` (zeros: a list or an array)."""
        game = state.game
        self.encoding.encode(game, player, t)
        if self.recall:
            base = self.encoding.size
            # who played each card, from the kernel: trick t is led by the winner of trick t-1
            k = game.kernel
            n = self.n
            leader = state.first_leader
            winners = k.winners
            for j, i in enumerate(k.order):
                t_, pos = divmod(j, n)
                lead = winners[t_ - 1] if t_ else leader
                t[base + ((lead + pos - player) % n) * self.pack + i] = 1

    def string_from(self, state: UpdownState, player: int) -> str:
        game = state.game
        if self.recall:
            return f"p{player} " + " | ".join(text if owner < 0 or owner == player else masked
                                               for owner, text, masked in state.events) + " | " + _sees(game, player)
        trick = " ".join(f"{tp.seat}:{tp.play}" for tp in game.trick)
        return (f"p{player} deal {game.deal.number} {game.phase.value} trump {game.trump} {_sees(game, player)} "
                f"trick {trick} bids {list(game.bids)} taken {list(game.taken)} totals {list(game.totals)}")


def _sees(game: Game, player: int) -> str:
    """The cards in hands that ``player`` sees now, as its seat's view shows them: its own (part
    of them while a trump is chosen from part of a hand, none in a blind deal) and any other
    hand it is shown (a deal played with the cards held to the forehead)."""
    view = game.view(player)
    others = " ".join(f"{s}:" + " ".join(str(c) for c in h) for s, h in enumerate(view.seen_hands) if h)
    return "hand " + " ".join(str(c) for c in view.hand) + (f" seen {others}" if others else "")


pyspiel.register_game(_GAME_TYPE, UpdownGame)
