#!/bin/sh
# A bot for updown's engine protocol in the shell, with jq: "the ducker".
# It bids the lowest bid it may and plays a card that does not take the trick when it has one
# (view.legal minus view.winning_plays), else the first legal action.
# jq reads one JSON request after another and, unbuffered, answers each with one line:
#   updown simulate --variant oh-hell --games 20 --bots exec:examples/bots/ducker.sh,heuristic,random,random
exec jq --unbuffered -c '{action: (((.view.legal - .view.winning_plays) | first) // .view.legal[0])}'
