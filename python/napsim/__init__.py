"""napsim from Python: the library behind the `napsim` command line.

Every function takes the command's arguments as keyword arguments with the command line's
defaults and returns the same numbers as the command for the same arguments and seed.

    >>> import napsim
    >>> doc = napsim.hand("AH KH 9H 7D 2C", seed=1, worlds=500)
    >>> doc["recommended"] in {"pass", "three", "four", "nap"}
    True
"""

import json

from . import _napsim

__all__ = ["hand", "__version__"]

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
