#!/usr/bin/env python3
"""How often is each bid made under one `napsim hand` play policy, and under another?

    scripts/play-strength.py BINARY misere|trump PROFILE PLAYERS COUNT SEED WORLDS SPEC_A SPEC_B

Runs `BINARY --rules PROFILE hand HAND --players PLAYERS --seed 1 --worlds WORLDS --no-dd --json
--play SPEC` on COUNT hands with both policies (the same worlds: only the play differs).
The hands are drawn as `scripts/hand-agreement.py` draws its sets. `misere`: low hands (none to
two cards of ten to ace, Python's random with SEED), the Misère row compared. `trump`: hands
weak to strong from seeded random deals, every trump bid with a P(make) between 2% and 98%
under SPEC_A compared. Prints one line per hand and
the mean difference of P(make), A minus B, with a 95% interval over the compared rows, and how
many rows each way. Policies that differ in the defence only: a lower P(make) is the stronger
defence; in the declarer only: a higher P(make) is the stronger declarer.

    # the defence of a misère: PIMC's own against the expert's
    scripts/play-strength.py target/release/napsim misere pub-guide 6 12 9 256 \\
        'split:declarer=(pimc:worlds=16,opening=256),defence=(pimc:worlds=16)' \\
        'split:declarer=(pimc:worlds=16,opening=256),defence=(expert)'
"""

import importlib.util
import json
import os
import subprocess
import sys


def hand_sets():
    """The hand-agreement script, whose hand sets this one draws from."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hand-agreement.py")
    spec = importlib.util.spec_from_file_location("hand_agreement", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def p_makes(binary, profile, players, hand, worlds, play):
    """P(make) of every bid under `play`."""
    command = [binary, "--rules", profile, "hand", hand, "--players", str(players), "--seed", "1",
               "--worlds", str(worlds), "--json", "--quiet", "--no-dd", "--play", play]
    doc = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    return {b["bid"]: b["p_make"] for b in doc["bids"]}


def main():
    if len(sys.argv) != 10 or sys.argv[2] not in ("misere", "trump"):
        sys.exit(__doc__)
    binary, kind, profile = sys.argv[1:4]
    players, count, seed, worlds = (int(a) for a in sys.argv[4:8])
    spec_a, spec_b = sys.argv[8:10]
    sets = hand_sets()
    hands = sets.low_hands(count, seed) if kind == "misere" else sets.hands(count, seed)
    diffs = []
    for hand in hands:
        a, b = (p_makes(binary, profile, players, hand, worlds, s) for s in (spec_a, spec_b))
        if kind == "misere":
            rows = ["misere"]
        else:
            rows = [bid for bid in a if bid != "misere" and 0.02 < a[bid] < 0.98]
        diffs += [a[bid] - b[bid] for bid in rows]
        shown = "  ".join(f"{bid} {a[bid]:.3f} / {b[bid]:.3f}" for bid in rows)
        print(f"{hand}  {shown or '(no bid in range)'}", flush=True)
    n = len(diffs)
    if n == 0:
        sys.exit("no row to compare")
    mean = sum(diffs) / n
    half = 1.96 * (sum((x - mean) ** 2 for x in diffs) / max(n - 1, 1) / n) ** 0.5
    print(f"{profile} at {players} players, {kind}: {n} rows, P(make) A minus B "
          f"{100 * mean:+.1f} ± {100 * half:.1f} points; A higher in "
          f"{sum(1 for x in diffs if x > 0)}, lower in {sum(1 for x in diffs if x < 0)}")


if __name__ == "__main__":
    main()
