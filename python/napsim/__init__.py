"""napsim from Python: the library behind the `napsim` command line.

Every function takes the command's arguments as keyword arguments with the command line's
defaults and returns the same numbers as the command for the same arguments and seed.

    >>> import napsim
    >>> doc = napsim.hand("AH KH 9H 7D 2C", seed=1, worlds=500)
    >>> doc["recommended"] in {"pass", "three", "four", "nap"}
    True
"""

import csv
import io
import json

from . import _napsim

__all__ = ["hand", "simulate", "__version__"]

__version__ = _napsim.__version__


def hand(
    cards,
    *,
    rules="heather-1875",
    players=4,
    seat=0,
    after=None,
    worlds=None,
    precision=None,
    play=None,
    others_bid=None,
    dd=True,
    as_declarer=False,
    seed=None,
    threads=None,
):
    """What a hand is worth, call by call: `napsim hand CARDS --json` as a dict.

    `after` is the earlier seats' calls (a list of names, or one string "pass,three");
    `worlds` and `precision` choose the run as `--worlds` and `--precision` do (neither: at
    most 4,000 worlds, stopping once the answer is settled); `play` and `others_bid` are
    policy specs (None: the command line's defaults); `dd=False` leaves out the double-dummy
    figure; `as_declarer=True` values the hand as declarer only. Without a seed one is chosen
    and recorded in the result's "seed". Bad input raises ValueError with the command line's
    message. The bids' rows are in the result's "bids" (a list of dicts).
    """
    if isinstance(after, str):
        after = [call for call in after.split(",") if call]
    text = _napsim.hand_json(
        cards,
        rules,
        players,
        seat,
        list(after or []),
        worlds,
        precision,
        play,
        others_bid,
        dd,
        as_declarer,
        seed,
        threads,
    )
    return json.loads(text)


def _table(text):
    """CSV text as a pandas DataFrame when pandas is installed, else a list of dicts (strings
    converted to numbers where they are numbers)."""
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None:
        return pandas.read_csv(io.StringIO(text))

    def value(text):
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text

    return [{key: value(cell) for key, cell in row.items()} for row in csv.DictReader(io.StringIO(text))]


def simulate(*, rules="heather-1875", players=4, deals=100_000, bid="threshold", play="heuristic", seed=None, threads=None):
    """Play many deals and tabulate each bid: `napsim simulate --out -` as a table with the
    CSV's columns (a pandas DataFrame if pandas is installed, else a list of dicts).

    Without a seed one is chosen. The run releases the GIL and stops on Ctrl-C
    (KeyboardInterrupt) after the blocks under way, leaving nothing running.
    """
    return _table(_napsim.simulate_csv(rules, players, deals, bid, play, seed, threads))
