#!/usr/bin/env python3
"""OpenSpiel's ISMCTS on ``oh_hell`` with guesses that do not see the deal.

OpenSpiel's own ``oh_hell`` resampler (``OhHellState::ResampleFromInfostate``, open_spiel 2.0.2)
deals the other players only cards that the real deal gave to one of them: the cards still in
the pack never reach a guessed hand. In a 7-card deal for 4 players that is 21 unseen cards out
of 44 named exactly, so ``pyspiel.ISMCTSBot`` searches with knowledge no player has. Run this
file to measure it::

    PYTHONPATH=. python benchmarks/fair_ismcts.py

``fair_bot(sims, seed)`` is OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``,
the port of the C++ bot, with the same random roll-out evaluator, UCT constant 2 and
``NORMALIZED_VISIT_COUNT`` final policy; the roll-outs by :class:`RandomRollout`) given :func:`resample` through its ``set_resampler``
hook: every card the player has not seen (the pack included) is dealt at random, each other
player taking as many as it holds, none of a suit it has shown void in (random deals drawn
until one fits; after 2,000 misses the voids are dropped, as OpenSpiel's resampler always
does). The arena plays it as ``ismcts:SIMS:fair``. With ``--values`` this file compares the
value of each action at a few positions by that ISMCTS and by updown's search given the same
kind of guesses: with OpenSpiel's resampler they disagree by as much as 4.7 points, with the fair
one within the noise. It is slower than the C++ bot (Python), so
its think time is not comparable.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402

PLAYERS, TRICKS, CARDS = 4, 7, 52
_PRE = 2  # chance actions before the deal: the number of tricks, the dealer
_TRIES = 2000


def _suit(card: int) -> int:
    return card % 4  # OpenSpiel oh_hell: action = rank * 4 + suit


def _seen(state: Any, player: int) -> tuple[list[list[int]], list[set[int]], list[int], int, list[int]]:
    """From a state's history: each seat's dealt cards, the suits each seat has shown void in,
    the cards played, the trump card, and the play actions after the deal."""
    history = state.history()
    n_deal = PLAYERS * TRICKS
    deal = history[_PRE:_PRE + n_deal]
    trump = history[_PRE + n_deal]
    after = history[_PRE + n_deal + 1:]
    dealt: list[list[int]] = [[] for _ in range(PLAYERS)]
    owner = {}
    for i, card in enumerate(deal):
        dealt[i % PLAYERS].append(card)
        owner[card] = i % PLAYERS
    plays = [a for a in after if a < CARDS]
    voids: list[set[int]] = [set() for _ in range(PLAYERS)]
    for k in range(0, len(plays), PLAYERS):
        trick = plays[k:k + PLAYERS]
        led = _suit(trick[0])
        for card in trick[1:]:
            if _suit(card) != led:
                voids[owner[card]].add(led)
    return dealt, voids, plays, trump, after


def resample(state: Any, player: int, rng: random.Random | None = None) -> Any:
    """A state with ``player``'s view of ``state``, the cards it has not seen dealt at random."""
    rng = rng or random.Random()
    dealt, voids, plays, trump, after = _seen(state, player)
    played = set(plays)
    keep = [[c for c in dealt[s] if s == player or c in played] for s in range(PLAYERS)]
    known = {c for hand in keep for c in hand} | {trump}
    unseen = [c for c in range(CARDS) if c not in known]
    need = [TRICKS - len(keep[s]) for s in range(PLAYERS)]
    for attempt in range(_TRIES + 1):
        rng.shuffle(unseen)
        hands, j, ok = [list(h) for h in keep], 0, True
        for s in range(PLAYERS):
            take = unseen[j:j + need[s]]
            j += need[s]
            if attempt < _TRIES and any(_suit(c) in voids[s] for c in take):
                ok = False
                break
            hands[s].extend(take)
        if ok:
            break
    clone = state.get_game().new_initial_state()
    for a in state.history()[:_PRE]:
        clone.apply_action(a)
    slots = [iter(h) for h in hands]
    for i in range(PLAYERS * TRICKS):
        clone.apply_action(next(slots[i % PLAYERS]))
    clone.apply_action(trump)
    for a in after:
        clone.apply_action(a)
    return clone


class RandomRollout:
    """A random roll-out evaluator, as OpenSpiel's (one roll-out of uniformly random legal
    actions to the end; uniform priors), written for ``random.Random`` (the Python ISMCTS needs
    ``prior``, which the C++ evaluator does not expose to Python)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        state = state.clone()
        rnd = self.rng.random
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rnd() * len(outcomes))][0])  # uniform in oh_hell
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(rnd() * len(legal))])
        return np.array(state.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def fair_bot(sims: int, seed: int, final_policy: str = "normalized", leaky: bool = False) -> Any:
    """OpenSpiel's Python ISMCTS with :func:`resample` (see the module); with ``leaky``, with
    OpenSpiel's own resampler (to compare the Python port with the C++ bot)."""
    pyspiel = benchkit.import_pyspiel()
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    policy = ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT if final_policy == "max" \
        else ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT
    evaluator = RandomRollout(seed)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(seed),
                           final_policy_type=policy)
    if not leaky:
        rng = random.Random(seed)
        bot.set_resampler(lambda state, player: resample(state, player, rng))
    return bot


def _from_the_pack(resampler: Any, states: list[Any]) -> tuple[int, int]:
    """Cards in the other hands of the guesses, and how many of them the real deal left in the pack."""
    total = outside = 0
    for state in states:
        p = state.current_player()
        dealt, _, plays, trump, _ = _seen(state, p)
        real = {c for s in range(PLAYERS) if s != p for c in dealt[s]}
        for _ in range(30):
            guess = resampler(state, p)
            hands, _, _, _, _ = _seen(guess, p)
            for s in range(PLAYERS):
                if s != p:
                    total += len(hands[s])
                    outside += sum(1 for c in hands[s] if c not in real)
    return total, outside


def compare_values(sims: int = 3000, positions: int = 8, seed: int = 1) -> list[tuple[str, str, float, float]]:
    """The value of each action at positions of random play, by OpenSpiel's Python ISMCTS with
    UCB flattened (a constant of 1,000: every action tried alike) and by updown's tree search
    held to its root (``Tree(depth=1)``, guesses not weighed by the bids), both with ``sims``
    random play-outs: (position, action, OpenSpiel's mean, updown's mean) with OpenSpiel's
    resampler and then with :func:`resample`."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    import arena
    from updown_dsl.players.bots import HeuristicBot
    from updown_dsl.players.search import SearchBot, _Setting
    from updown_dsl.players.tree import Tree
    from updown_dsl import loads_variant

    pyspiel = benchkit.import_pyspiel()
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    variant = loads_variant(arena.OH_HELL_7_YAML)
    out = []
    for k in range(positions):
        pick = random.Random(f"{seed}:{k}")
        dealer, cards = pick.randrange(PLAYERS), pick.sample(range(CARDS), PLAYERS * TRICKS + 1)
        state, ours = arena.mirrored_deal(game, variant, dealer, cards)
        for _ in range(pick.choice((0, 2, 3, 9, 12, 14, 17, 20))):
            a = pick.choice(state.legal_actions())
            ours.apply(arena._os_to_updown(a, ours.phase))
            state.apply_action(a)
        if len(state.legal_actions()) < 2:
            continue
        view = ours.view(ours.to_act)
        bot = SearchBot(random.Random(k), bidder=HeuristicBot(random.Random(k)), fit_bids=False)
        tree = Tree(1000.0 / 17, depth=1)
        guesses = bot._guesses(view, _Setting(view, bot._rollout_for), reject=False)
        for _ in range(sims):
            tree.iterate(next(guesses)[1], bot.rng)
        for label, fair in (("OpenSpiel's guesses", False), ("fair guesses", True)):
            search = ismcts.ISMCTSBot(game, RandomRollout(k), 1000.0, sims, random_state=np.random.RandomState(k))
            if fair:
                rng = random.Random(k)
                search.set_resampler(lambda st, pl: resample(st, pl, rng))
            search.run_search(state)
            for a, child in search._root_node.child_info.items():
                move = arena._os_to_updown(a, ours.phase)
                edge = tree.root[move]
                out.append((f"{k} {label}", str(move), child.return_sum / child.visits, edge[1] / edge[0]))
    return out


def main() -> int:
    pyspiel = benchkit.import_pyspiel()
    if pyspiel is None:
        print("open_spiel is not installed (pip install '.[bench]')")
        return 2
    if "--values" in sys.argv[1:]:
        rows = compare_values()
        for label in ("OpenSpiel's guesses", "fair guesses"):
            diffs = [o - u for pos, _, o, u in rows if pos.endswith(label)]
            print(f"ISMCTS with {label:<20} minus updown's search, per action: mean {sum(diffs) / len(diffs):+.2f}, "
                  f"largest {max(diffs, key=abs):+.2f} ({len(diffs)} actions, 3,000 play-outs each side)")
        for pos, move, o, u in rows:
            print(f"  position {pos:<24} {move:<8} ISMCTS {o:6.2f}  updown {u:6.2f}  {o - u:+.2f}")
        return 0
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": TRICKS})
    rng = random.Random(4)
    states = []
    for _ in range(30):
        s = game.new_initial_state()
        s.apply_action(TRICKS)
        s.apply_action(rng.randrange(PLAYERS))
        while s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        for _ in range(rng.randrange(0, 16)):
            s.apply_action(rng.choice(s.legal_actions()))
        states.append(s)
    unseen = CARDS - TRICKS - 1
    print(f"30 positions of a 7-card deal; the other hands hold {3 * TRICKS} of the {unseen} cards the player "
          f"has not seen at the deal, the pack {unseen - 3 * TRICKS}")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for name, fn in (("OpenSpiel's resample_from_infostate", lambda s, p: s.resample_from_infostate(p, sampler)),
                     ("fair_ismcts.resample", lambda s, p: resample(s, p, rng))):
        total, outside = _from_the_pack(fn, states)
        print(f"{name:<38} {total} cards guessed in the other hands, {outside} of them "
              f"({100 * outside / total:.1f} %) from the real pack")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
