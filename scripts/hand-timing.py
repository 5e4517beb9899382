#!/usr/bin/env python3
"""How long does `napsim hand`'s default take on random hands?

    scripts/hand-timing.py BINARY PROFILE PLAYERS COUNT SEED

Draws COUNT random hands (Python's random with SEED, so the same hands every time), runs
`BINARY --rules PROFILE hand HAND --players PLAYERS --seed 1 --json --quiet` on each, and prints
one line per hand (wall seconds, worlds, why it stopped, the recommendation, how many bids it
dropped) and a summary (median, slowest, how many over ten seconds). Times are the machine's:
quote them with the machine, and compare builds only within one run.
"""

import json
import random
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    binary, profile = sys.argv[1], sys.argv[2]
    players, count, seed = (int(a) for a in sys.argv[3:])
    rng = random.Random(seed)
    pack = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    walls = []
    for _ in range(count):
        hand = " ".join(rng.sample(pack, 5))
        command = [binary, "--rules", profile, "hand", hand, "--players", str(players),
                   "--seed", "1", "--json", "--quiet"]
        start = time.time()
        out = subprocess.run(command, capture_output=True, text=True, check=True)
        wall = time.time() - start
        doc = json.loads(out.stdout)
        dropped = sum(1 for b in doc["bids"] if "dropped_after" in b)
        walls.append(wall)
        print(f"{hand}  {wall:6.2f} s  {doc['worlds']:5} worlds  "
              f"{doc['stopping']['reason']:10} {doc['recommended']:10} dropped {dropped}",
              flush=True)
    walls.sort()
    print(f"{profile} at {players} players: {count} hands, median {walls[len(walls) // 2]:.2f} s, "
          f"slowest {walls[-1]:.2f} s, over 10 s: {sum(1 for w in walls if w > 10)}")


if __name__ == "__main__":
    main()
