#!/usr/bin/env python3
"""A napsim bot (docs/protocol.md) that calls and plays uniformly at random.

Standard library only. It draws from the seed each request carries, so its results are the
same whatever napsim's thread count.
"""
import json
import random
import sys


def main():
    for line in sys.stdin:
        request = json.loads(line)
        kind = request["type"]
        if kind == "hello":
            answer = {"name": "random_bot"}
        elif kind == "bid":
            answer = {"call": random.Random(request["seed"]).choice(request["legal"])}
        elif kind == "play":
            answer = {"card": random.Random(request["seed"]).choice(request["legal"])}
        else:
            answer = {}  # a notice this bot does not know
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
