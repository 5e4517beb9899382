#!/usr/bin/env python3
"""How long does `napsim hand`'s default take on random hands?

    scripts/hand-timing.py BINARY[,BINARY2] PROFILE PLAYERS COUNT SEED

Draws COUNT random hands from the profile's pack at that table size (Python's random with SEED,
so the same hands every time), runs
`BINARY --rules PROFILE hand HAND --players PLAYERS --seed 1 --json --quiet` on each, and prints
one line per hand (wall seconds, worlds, why it stopped, the recommendation, how many bids it
dropped) and a summary (median, slowest, how many over ten seconds). Given two binaries
(comma-separated: the build before a change, then after it), each hand is run by both in turn,
interleaved so that the machine's load falls on both alike, and the summary adds the median of
the per-hand time ratios (second over first). Times are the machine's: quote them with the
machine, and compare builds only within one run.
"""

import json
import os
import random
import re
import statistics
import subprocess
import sys
import time


def timed(binary, profile, players, hand):
    command = [binary, "--rules", profile, "hand", hand, "--players", str(players),
               "--seed", "1", "--json", "--quiet"]
    start = time.time()
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.time() - start, json.loads(out.stdout)


def lowest_rank(profile, players):
    """The lowest rank in the pack of a built-in profile at this table size (`[pack]`'s
    `lowest_rank`, or its `lowest_rank_by_players` entry); "2" for a profile given as a file."""
    path = os.path.join(os.path.dirname(__file__), "..", "configs", "rules", profile + ".toml")
    if not os.path.exists(path):
        return "2"
    text = open(path).read()
    by_players = re.search(r"^lowest_rank_by_players\s*=\s*\{([^}]*)\}", text, re.M)
    if by_players:
        found = re.search(rf"\b{players}\s*=\s*\"(\w+)\"", by_players.group(1))
        if found:
            return found.group(1)
    found = re.search(r'^lowest_rank\s*=\s*"(\w+)"', text, re.M)
    return found.group(1) if found else "2"


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    binaries, profile = sys.argv[1].split(","), sys.argv[2]
    players, count, seed = (int(a) for a in sys.argv[3:])
    rng = random.Random(seed)
    ranks = "23456789TJQKA"
    low = lowest_rank(profile, players)
    pack = [r + s for s in "SHDC" for r in ranks[ranks.index(low):]]
    walls = [[] for _ in binaries]
    for _ in range(count):
        hand = " ".join(rng.sample(pack, 5))
        line = hand
        for i, binary in enumerate(binaries):
            wall, doc = timed(binary, profile, players, hand)
            dropped = sum(1 for b in doc["bids"] if "dropped_after" in b)
            walls[i].append(wall)
            line += (f"  | {wall:6.2f} s  {doc['worlds']:5} worlds  "
                     f"{doc['stopping']['reason']:10} {doc['recommended']:10} dropped {dropped}")
        print(line, flush=True)
    for i, binary in enumerate(binaries):
        w = sorted(walls[i])
        print(f"{binary}: {profile} at {players} players: {count} hands, median "
              f"{w[len(w) // 2]:.2f} s, slowest {w[-1]:.2f} s, over 10 s: "
              f"{sum(1 for x in w if x > 10)}")
    if len(binaries) == 2:
        ratios = [b / a for a, b in zip(walls[0], walls[1])]
        print(f"second over first: median ratio {statistics.median(ratios):.2f}, total "
              f"{sum(walls[1]) / sum(walls[0]):.2f}, slowest {max(walls[1]) / max(walls[0]):.2f}")


if __name__ == "__main__":
    main()
