#!/usr/bin/env python3
"""A napsim bot (docs/protocol.md) that passes whenever it may and plays its lowest legal card.

Standard library only. Ranks run 2 to 9, T (ten), J, Q, K, A; a card is its rank then its
suit letter (S, H, D, C), e.g. "TD".
"""
import json
import sys

RANKS = "23456789TJQKA"


def answer(request):
    """The answer to one request."""
    kind = request["type"]
    if kind == "hello":
        return {"name": "lowest_bot"}
    if kind == "bid":
        legal = request["legal"]
        return {"call": "pass" if "pass" in legal else legal[0]}
    if kind == "play":
        return {"card": min(request["legal"], key=lambda card: RANKS.index(card[0]))}
    return {}  # a notice this bot does not know


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
