#!/usr/bin/env python3
"""How long does `napsim play`'s call hint take?

    scripts/hint-timing.py BINARY[,BINARY2] PROFILE PLAYERS SEEDS

For each seed from 1 to SEEDS, runs `BINARY --rules PROFILE play --players PLAYERS --seed S`
with the answers `hint` then `quit` (the person asks for a hint at their first call, after the
bots before them have called; where the profile asks first whether to peek at the floater or what
to buy, the answer is `no` or `none`) and prints the wall time of the whole run: an upper bound on the
hint's own time, since the bots' calls before it and the start are counted too. Given two
binaries (comma-separated: before a change, then after it), each seed is run by both in turn,
interleaved so that the machine's load falls on both alike, and the summary adds the median of
the per-seed ratios (second over first). Times are the machine's: quote them with the machine.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(binary, profile, players, seed, tmp):
    """The wall time of a run that reaches a call hint, answering a first question if asked."""
    for first in ([], ["no"], ["none"]):
        answers = os.path.join(tmp, "answers.txt")
        with open(answers, "w") as f:
            f.write("\n".join(first + ["hint", "quit"]) + "\n")
        command = [binary, "--rules", profile, "play", "--players", str(players),
                   "--seed", str(seed), "--input", answers,
                   "--save", os.path.join(tmp, "s.jsonl"), "--force"]
        start = time.time()
        out = subprocess.run(command, capture_output=True, text=True, check=True)
        wall = time.time() - start
        if "hint (" in out.stdout:
            return wall
    sys.exit(f"seed {seed}: no call hint reached:\n{out.stdout}")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    binaries, profile = sys.argv[1].split(","), sys.argv[2]
    players, seeds = int(sys.argv[3]), int(sys.argv[4])
    walls = [[] for _ in binaries]
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, seeds + 1):
            line = [f"seed {seed}"]
            for i, binary in enumerate(binaries):
                wall = timed(binary, profile, players, seed, tmp)
                walls[i].append(wall)
                line.append(f"{wall:.2f} s")
            print("  ".join(line), flush=True)
    for i, binary in enumerate(binaries):
        print(f"{binary}: median {statistics.median(walls[i]):.2f} s, slowest {max(walls[i]):.2f} s")
    if len(binaries) == 2:
        ratios = [b / a for a, b in zip(*walls)]
        print(f"median ratio (second over first): {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
