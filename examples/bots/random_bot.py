#!/usr/bin/env python3
"""A bot for updown's engine protocol: a random legal action, with a little sense.

updown sends one JSON line per decision, {"type": "act", "view": {...}} (the fields are in
docs/protocol.md); the bot answers one line, {"action": "<one of view.legal>"}. It uses
nothing but the standard library, so any Python 3 runs it:

    updown simulate --variant oh-hell --games 20 --bots "exec:python3 examples/bots/random_bot.py,heuristic,random,random"

Its one piece of sense: once its bid is made it plays a card that does not win the trick
when it has one (view.winning_plays lists the legal plays that would win it now).
"""

import json
import random
import sys


def choose(view, rng):
    """One of the view's legal actions (their text, as updown writes them)."""
    legal = view["legal"]
    if view["phase"] == "play":
        bid = view["bids"][view["seat"]]
        made = bid is not None and view["taken"][view["seat"]] >= bid
        losing = [a for a in legal if a not in view["winning_plays"]]
        if made and losing:
            return rng.choice(losing)
    return rng.choice(legal)


def main():
    rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else None)
    for line in sys.stdin:  # one request a line, until updown closes the pipe
        message = json.loads(line)
        if message.get("type") != "act":
            continue  # a message this bot does not know: no answer is expected
        answer = {"action": choose(message["view"], rng)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()  # a pipe is buffered: without this updown waits in vain


if __name__ == "__main__":
    main()
