#!/usr/bin/env python3
"""Does a new `napsim hand` default recommend what the old one did wherever the old answer is clear?

    scripts/hand-agreement.py OLD_BINARY NEW_BINARY [--cache FILE] [--set NAME ...] [NEW ARGS...]

Runs both binaries' default `napsim hand HAND --seed S --json` over a fixed set of hands (chosen
across strengths from seeded random deals: 4 players under heather-1875, and some under
pub-guide at 4 and 6 players and under encyclopedia at 7; the set `misere`, low hands under
Misère profiles at 4 to 7 players), and for every hand whose old answer
is clear (the recommended call's expected units ahead of the runner-up's, passing counting as
0 ± 0, by more than 3 standard errors of the difference, the two bids' errors combined as if
independent) checks that the new recommendation is the same. Prints one line per hand (worlds,
time, both answers) and a summary; exits 1 if a clear answer changed. Results are cached in
FILE (JSON, keyed by binary and command) so that a rerun only runs what is new. NEW ARGS (after
`--`) are added to the new binary's command (`-- --play pimc:worlds=16`).
"""

import argparse
import hashlib
import json
import math
import os
import random
import subprocess
import sys
import time

RANKS = "23456789TJQKA"
SUITS = "SHDC"
HONOURS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def strength(hand):
    """A crude score to spread the hands from weak to strong: honours, plus length in the
    longest suit."""
    longest = max(sum(1 for c in hand if c[1] == s) for s in SUITS)
    return sum(HONOURS.get(c[0], 0) for c in hand) + 3 * (longest - 1)


def hands(count, seed):
    """`count` hands from seeded random deals, their strengths evenly spaced from the median
    hand's to the strongest's (most random hands are plain passes)."""
    rng = random.Random(seed)
    pack = [r + s for s in SUITS for r in RANKS]
    drawn = sorted((rng.sample(pack, 5) for _ in range(20000)), key=strength)
    low, high = strength(drawn[len(drawn) // 2]), strength(drawn[-1])
    chosen = []
    for i in range(count):
        target = low + (high - low) * i / max(count - 1, 1)
        pick = min((h for h in drawn if h not in chosen), key=lambda h: abs(strength(h) - target))
        chosen.append(pick)
    return [" ".join(h) for h in chosen]


def low_hands(count, seed):
    """`count` hands of low cards (none to two of ten to ace), where a Misère is the question."""
    rng = random.Random(seed)
    low = [r + s for s in SUITS for r in RANKS[:8]]
    high = [r + s for s in SUITS for r in RANKS[8:]]
    chosen = []
    for _ in range(count):
        honours = rng.choice([0, 1, 1, 2])
        chosen.append(" ".join(rng.sample(low, 5 - honours) + rng.sample(high, honours)))
    return chosen


SETS = {
    "heather-4": [("heather-1875", 4, h) for h in hands(30, 1)],
    "pub-4": [("pub-guide", 4, h) for h in hands(6, 2)],
    "heather-6": [("heather-1875", 6, h) for h in hands(4, 3)],
    "pub-6": [("pub-guide", 6, h) for h in hands(2, 4)],
    "pub-6-more": [("pub-guide", 6, h) for h in hands(6, 6)],
    "encyclopedia-7": [("encyclopedia", 7, h) for h in hands(6, 5)],
    "misere": [(profile, players, h)
               for (profile, players, seed) in [("pub-guide", 4, 7), ("pub-guide", 5, 8),
                                                ("pub-guide", 6, 9), ("encyclopedia", 7, 10)]
               for h in low_hands(4, seed)],
}


def run(binary, profile, players, hand, seed, extra, cache):
    """The JSON answer of one run, its wall and user seconds (cached)."""
    command = [binary, "--rules", profile, "hand", hand, "--players", str(players),
               "--seed", str(seed), "--json", "--quiet", *extra]
    key = hashlib.sha256(json.dumps([file_digest(binary), command[1:]]).encode()).hexdigest()
    if key in cache:
        return cache[key]
    start = time.time()
    before = os.times()
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    after = os.times()
    result = {
        "doc": json.loads(out.stdout),
        "wall": time.time() - start,
        "user": after.children_user - before.children_user,
    }
    cache[key] = result
    return result


DIGESTS = {}


def file_digest(path):
    if path not in DIGESTS:
        with open(path, "rb") as f:
            DIGESTS[path] = hashlib.sha256(f.read()).hexdigest()[:16]
    return DIGESTS[path]


def verdict(doc):
    """The recommended call, the runner-up, and the lead in standard errors."""
    calls = [(b["bid"], b["ev"], b["ev_se"]) for b in doc["bids"] if b["callable"]]
    calls.append(("pass", 0.0, 0.0))
    calls.sort(key=lambda c: -c[1])
    best = next(c for c in calls if c[0] == doc["recommended"])
    runner = next(c for c in calls if c[0] != best[0])
    se = math.hypot(best[2], runner[2])
    lead = (best[1] - runner[1]) / se if se > 0 else math.inf
    return best[0], runner[0], lead


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--cache", default="hand-agreement.json")
    parser.add_argument("--set", action="append", choices=sorted(SETS))
    parser.add_argument("--seed", type=int, default=3)
    # NEW ARGS follow a `--`; argparse's `nargs="*"` after two positionals refuses them.
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.extra = argv[split + 1:]
    cache = {}
    if os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    changed = clear = 0
    for name in args.set or ["heather-4", "pub-4", "heather-6"]:
        times = []
        for profile, players, hand in SETS[name]:
            old = run(args.old, profile, players, hand, args.seed, [], cache)
            new = run(args.new, profile, players, hand, args.seed, args.extra, cache)
            with open(args.cache, "w") as f:
                json.dump(cache, f)
            best, runner, lead = verdict(old["doc"])
            is_clear = lead > 3
            same = new["doc"]["recommended"] == best
            clear += is_clear
            changed += is_clear and not same
            stop = new["doc"].get("stopping", {}).get("reason", "fixed")
            times.append((old["user"], new["user"], new["doc"]["worlds"]))
            print(f"{name:9} {hand:15} old {best:10} ({lead:5.1f} se over {runner:10}) "
                  f"new {new['doc']['recommended']:10} {new['doc']['worlds']:5} worlds "
                  f"({stop:10}) user {old['user']:6.1f} s -> {new['user']:6.1f} s"
                  f"{'' if same or not is_clear else '  CHANGED'}", flush=True)
        old_user = sorted(t[0] for t in times)[len(times) // 2]
        new_user = sorted(t[1] for t in times)[len(times) // 2]
        worlds = sorted(t[2] for t in times)[len(times) // 2]
        print(f"{name}: median user time {old_user:.1f} s -> {new_user:.1f} s, "
              f"median worlds {worlds}", flush=True)
    print(f"{clear} clear answers, {changed} changed")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
