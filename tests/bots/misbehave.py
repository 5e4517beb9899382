#!/usr/bin/env python3
"""A napsim bot that misbehaves on its first card request, as its argument says: `crash`
(exits with status 3), `hang` (never answers), `illegal` (a card not in its hand), `garbage`
(a line that is not JSON), `fine` (never). An optional second argument N delays it to the
N-th card request; further arguments are ignored (the tests tag their processes with them).
Used by tests/ext_bots.rs."""
import json
import sys
import time

how = sys.argv[1]
after = int(sys.argv[2]) if len(sys.argv) > 2 else 1
cards = 0
for line in sys.stdin:
    request = json.loads(line)
    kind = request["type"]
    if kind == "hello":
        answer = {"name": "misbehave-" + how}
    elif kind == "bid":
        answer = {"call": request["legal"][0]}
    elif kind == "play":
        cards += 1
        how_now = how if cards >= after else "fine"
        if how_now == "crash":
            sys.stderr.write("misbehave: crashing on purpose\n")
            sys.exit(3)
        if how_now == "hang":
            time.sleep(3600)
        if how_now == "illegal":
            pack = [r + s for r in "23456789TJQKA" for s in "SHDC"]
            answer = {"card": next(c for c in pack if c not in request["hand"].split())}
        elif how_now == "garbage":
            print("this is not json", flush=True)
            continue
        else:
            answer = {"card": request["legal"][0]}
    else:
        answer = {}
    print(json.dumps(answer), flush=True)
