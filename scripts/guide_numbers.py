#!/usr/bin/env python3
"""Prints the figures quoted in results/GUIDE.md, read from the committed bid tables.

Usage: scripts/guide_numbers.py  (from the project root, after scripts/reproduce-results.sh)
"""
import csv
import math
import os
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(__file__), "..", "results")


def load(profile, name):
    path = os.path.join(ROOT, profile, name + ".csv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return list(csv.DictReader(f))


def pooled(rows, seat, bid, keep):
    """P(make), its Wilson-free normal 95% half-width, EV and hands over the classes `keep` accepts."""
    made = hands = units = dd_made = dd_hands = 0.0
    for r in rows:
        if r["seat"] != str(seat) or r["bid"] != bid or not keep(r["class"]):
            continue
        n = int(r["hands"])
        hands += n
        made += float(r["p_make"]) * n
        units += float(r["ev"]) * n
        if r["dd_p_make"]:
            dn = int(r["dd_hands"])
            dd_hands += dn
            dd_made += float(r["dd_p_make"]) * dn
    if hands == 0:
        return None
    p = made / hands
    half = 1.96 * math.sqrt(p * (1 - p) / hands)
    dd = dd_made / dd_hands if dd_hands else float("nan")
    return p, half, units / hands, int(hands), dd


def show(title, profile, name, seat, bid, keep):
    rows = load(profile, name)
    if rows is None:
        return
    r = pooled(rows, seat, bid, keep)
    if r is None:
        print(f"{title:48} {profile:13} {name:15} seat {seat}: no shown class")
        return
    p, half, ev, n, dd = r
    print(f"{title:48} {profile:13} {name:15} seat {seat}: P={100*p:5.1f}% ±{100*half:.1f}  "
          f"dd {100*dd:5.1f}%  EV {ev:+.2f}  ({n} hands)")


def three_trumps(honours):
    return lambda c: c.startswith(f"3 trumps {honours}")


def main():
    good = ["A-K-Q", "A-K-x", "A-Q-x", "K-Q-x", "A-J-T"]
    for profile in ["heather-1875", "pub-guide"]:
        for play in ["heuristic", "pimc"]:
            for players in [3, 4, 5, 6]:
                name = f"{play}-{players}p"
                for h in good:
                    show(f"Three with 3 trumps {h}", profile, name, 0, "three", three_trumps(h))
                show("Three with 3 trumps, no A/K/Q", profile, name, 0, "three",
                     lambda c: c.startswith("3 trumps ") and c.split()[2][0] not in "AKQ")
    # "Good enough for Four is good enough for Nap when Nap pays 10 and loses 5": among the
    # classes whose best bid is Four or Nap, how often is Nap the better of the two?
    for profile in ["heather-1875", "pub-guide"]:
        for players in [3, 4, 5, 6]:
            rows = load(profile, f"heuristic-{players}p")
            if rows is None:
                continue
            by_class = defaultdict(dict)
            for r in rows:
                if r["seat"] == "0":
                    by_class[r["class"]][r["bid"]] = r
            four_ok = nap_better = 0
            for bids in by_class.values():
                four, nap = bids.get("four"), bids.get("nap")
                if four and nap and float(four["ev"]) > 0:
                    n = int(four["hands"])
                    four_ok += n
                    if float(nap["ev"]) > float(four["ev"]):
                        nap_better += n
            if four_ok:
                print(f"Four worth bidding, Nap better: {profile:13} {players}p seat 0: "
                      f"{nap_better}/{four_ok} hands ({100*nap_better/four_ok:.1f}%)")


def seats_and_naps():
    """Three with A-K-x trumps by seat, and Nap with the strongest common shapes."""
    for profile in ["heather-1875", "pub-guide"]:
        for players in [3, 4, 5, 6]:
            name = f"heuristic-{players}p"
            for seat in range(players):
                show("Three with 3 trumps A-K-x, by seat", profile, name, seat, "three",
                     three_trumps("A-K-x"))
            for shape in ["5 trumps A-K", "4 trumps A-K-Q", "4 trumps A-K-x-x, 1 side ace",
                          "4 trumps A-x-x-x, 1 side ace"]:
                for bid in ["four", "nap"]:
                    show(f"{bid} with {shape}", profile, name, 0, bid,
                         lambda c, s=shape: c.startswith(s))


def dd_four_or_nap():
    """The Four-or-Nap question with double-dummy P(make) (the dd subsample)."""
    for profile in ["heather-1875", "pub-guide"]:
        for players in [3, 4, 5, 6]:
            rows = load(profile, f"heuristic-{players}p")
            if rows is None:
                continue
            by_class = defaultdict(dict)
            for r in rows:
                if r["seat"] == "0" and r["dd_p_make"]:
                    by_class[r["class"]][r["bid"]] = r
            four_ok = nap_better = 0
            for bids in by_class.values():
                four, nap = bids.get("four"), bids.get("nap")
                if not (four and nap):
                    continue
                # EV from the dd P(make) and the payouts implied by the row's own EV and P.
                def ev_dd(r):
                    p, ev = float(r["p_make"]), float(r["ev"])
                    b = float(r["breakeven"])
                    # ev = p*W - (1-p)*L with L/(W+L) = b: recover W and L up to scale.
                    w_plus_l = (ev / (p - b)) if abs(p - b) > 1e-9 else None
                    if w_plus_l is None:
                        return None
                    w, l = (1 - b) * w_plus_l, b * w_plus_l
                    q = float(r["dd_p_make"])
                    return q * w - (1 - q) * l
                e4, e5 = ev_dd(four), ev_dd(nap)
                if e4 is None or e5 is None or e4 <= 0:
                    continue
                n = int(four["hands"])
                four_ok += n
                if e5 > e4:
                    nap_better += n
            if four_ok:
                print(f"Double dummy: Four worth bidding, Nap better: {profile:13} {players}p: "
                      f"{nap_better}/{four_ok} hands ({100*nap_better/four_ok:.1f}%)")


def coarsen(label):
    """A `--by classes` label as its `--by coarse` class: J and T become x, only side aces kept."""
    parts = label.split(", ")
    head = parts[0].split(" ")
    cards = ["x" if c in "JT" else c for c in head[2].split("-")]
    coarse = f"{head[0]} {head[1]} {'-'.join(cards)}"
    for p in parts[1:]:
        if "side ace" in p:
            coarse += ", " + p
    return coarse


def play_compared():
    """Heuristic against PIMC on the coarse classes the PIMC tables show (seat 0)."""
    for profile in ["heather-1875", "pub-guide"]:
        for players in [3, 4, 5, 6]:
            pimc = load(profile, f"pimc-{players}p")
            heur = load(profile, f"heuristic-{players}p")
            if pimc is None or heur is None:
                continue
            for r in pimc:
                if r["seat"] != "0" or r["bid"] not in ("three", "four", "nap", "misere"):
                    continue
                h = pooled(heur, 0, r["bid"], lambda c, want=r["class"]: coarsen(c) == want)
                if h is None:
                    continue
                p, n = float(r["p_make"]), int(r["hands"])
                half = 1.96 * math.sqrt(p * (1 - p) / n)
                dd = float(r["dd_p_make"]) if r["dd_p_make"] else float("nan")
                print(f"{profile:13} {players}p {r['class']:34} {r['bid']:6} "
                      f"pimc {100*p:5.1f}% ±{100*half:.1f} (dd {100*dd:5.1f}%, {n} hands)  "
                      f"heuristic {100*h[0]:5.1f}% ±{100*h[1]:.1f}")


if __name__ == "__main__":
    play_compared()
    seats_and_naps()
    dd_four_or_nap()
    main()
