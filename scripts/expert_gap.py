#!/usr/bin/env python3
"""The expert's gap to PIMC per coarse class, for declarer and for defence.

Reads three `napsim bid-table --by coarse` CSVs of the same deals and seed: every seat playing
PIMC, the declarer playing expert against PIMC defenders, and PIMC declarers against expert
defenders. Prints a Markdown table: per class and bid (seats pooled, weighted by hands), PIMC's
P(make), how much lower the expert declarer's P(make) is (its declarer gap), and how much higher
the declarer's P(make) is against expert defence (its defence gap), in points, each with the
half-width of its 95% interval (the two runs' errors combined as if independent: the runs share
their deals, so the true interval is narrower).

usage: expert_gap.py PIMC.csv EXPERT_DECLARER.csv EXPERT_DEFENCE.csv
"""
import csv
import math
import sys
from collections import defaultdict


def pooled(path):
    """(class, bid) -> [hands, makes], seats pooled."""
    table = defaultdict(lambda: [0, 0.0])
    order = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["class"], row["bid"])
            if key not in table:
                order.append(key)
            hands = int(row["hands"])
            table[key][0] += hands
            table[key][1] += hands * float(row["p_make"])
    return table, order


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    pimc, order = pooled(sys.argv[1])
    declarer, _ = pooled(sys.argv[2])
    defence, _ = pooled(sys.argv[3])
    print("| class | bid | hands | PIMC P(make) | expert declarer gap | expert defence gap |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for key in order:
        if key not in declarer or key not in defence:
            continue
        n, made = pimc[key]
        p = made / n
        decl, decl_half = gap(pimc[key], declarer[key])
        defn, defn_half = gap(defence[key], pimc[key])
        print(f"| {key[0]} | {key[1]} | {n} | {100 * p:.1f}% "
              f"| {100 * decl:+.1f} ± {100 * decl_half:.1f} | {100 * defn:+.1f} ± {100 * defn_half:.1f} |")


def gap(first, second):
    """first's P(make) minus second's, and the half-width of its 95% interval; each argument is
    [hands, makes]."""
    (n1, m1), (n2, m2) = first, second
    p1, p2 = m1 / n1, m2 / n2
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    return p1 - p2, 1.96 * se


if __name__ == "__main__":
    main()
