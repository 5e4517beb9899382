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

__all__ = ["hand", "simulate", "bid_table", "thresholds", "tournament", "solve", "review", "Game", "__version__"]

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
    progress=None,
    move_time=None,
):
    """What a hand is worth, call by call: `napsim hand CARDS --json` as a dict.

    `after` is the earlier seats' calls (a list of names, or one string "pass,three");
    `worlds` and `precision` choose the run as `--worlds` and `--precision` do (neither: at
    most 4,000 worlds, stopping once the answer is settled); `play` and `others_bid` are
    policy specs (None: the command line's defaults); `dd=False` leaves out the double-dummy
    figure; `as_declarer=True` values the hand as declarer only. Without a seed one is chosen
    and recorded in the result's "seed". Bad input raises ValueError with the command line's
    message. The bids' rows are in the result's "bids" (a list of dicts). `progress`, if
    given, is called as progress(done, total) while the run goes on (worlds played).
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
        progress,
        move_time,
    )
    return json.loads(text)


def _table(text):
    """Rows given as a JSON array of objects (the command's CSV rows, its columns in order) as a
    pandas DataFrame when pandas is installed, else the list of dicts."""
    rows = json.loads(text)
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame.from_records(rows, columns=list(rows[0]) if rows else None)


def simulate(
    *, rules="heather-1875", players=4, deals=100_000, bid="threshold", play="heuristic", seed=None, threads=None, progress=None, move_time=None
):
    """Play many deals and tabulate each bid: `napsim simulate --out -` as a table with the
    CSV's columns (a pandas DataFrame if pandas is installed, else a list of dicts).

    Without a seed one is chosen. The run releases the GIL and stops on Ctrl-C
    (KeyboardInterrupt) after the blocks under way, leaving nothing running. `progress`, if
    given, is called as progress(done, total) in deals while the run goes on.
    """
    return _table(_napsim.simulate_rows(rules, players, deals, bid, play, seed, threads, progress, move_time))


def bid_table(
    *,
    rules="heather-1875",
    players=4,
    deals=1_000_000,
    play="heuristic",
    by="classes",
    dd_deals=None,
    per_class=None,
    classes=None,
    class_labels=None,
    min_hands=None,
    auction=False,
    seed=None,
    threads=None,
    progress=None,
    move_time=None,
):
    """Success rates and EVs by hand class and seat: `napsim bid-table --out -` as a table
    with the CSV's columns.

    Keywords are the command's flags: `by` ("classes", "coarse" or "exact"), `dd_deals`
    (--dd-deals), `per_class` (--per-class), `classes` (--classes FILE), `class_labels` (a
    list of --class labels), `min_hands` (--min-hands), `auction` (--auction).
    """
    text = _napsim.bid_table_rows(
        rules,
        players,
        deals,
        play,
        by,
        dd_deals,
        per_class,
        None if classes is None else str(classes),
        list(class_labels or []),
        min_hands,
        auction,
        seed,
        threads,
        progress,
        move_time,
    )
    return _table(text)


def thresholds(
    *, rules="heather-1875", players=4, deals=1_000_000, play="heuristic", seat=0, auction=False, seed=None, threads=None, progress=None, move_time=None
):
    """The best point-count threshold for each bid: `napsim thresholds --out -` as a table
    with the CSV's columns (one row per bid and threshold)."""
    return _table(_napsim.thresholds_rows(rules, players, deals, play, seat, auction, seed, threads, progress, move_time))


def tournament(
    entrants,
    *,
    rules="heather-1875",
    players=4,
    sessions=1000,
    duplicate=True,
    forfeit=False,
    sprt=None,
    sprt_on="units",
    alpha=0.05,
    beta=0.05,
    seed=None,
    threads=None,
    progress=None,
    move_time=None,
):
    """Bots against each other: `napsim tournament --out -` as a table with the CSV's columns
    (one row per entrant).

    `entrants` is a list of "NAME=BID/PLAY" (or a dict {name: "BID/PLAY"}); `sprt` a pair
    (D0, D1) for the sequential test, on `sprt_on` ("units" or "wins"). A failing external bot
    raises RuntimeError (with `forfeit=True` it forfeits its deal instead).
    """
    if isinstance(entrants, dict):
        entrants = [f"{name}={spec}" for name, spec in entrants.items()]
    bounds = None if sprt is None else (float(sprt[0]), float(sprt[1]))
    text = _napsim.tournament_rows(
        rules, players, list(entrants), sessions, duplicate, forfeit, bounds, sprt_on, alpha, beta, seed, threads, progress, move_time
    )
    return _table(text)


def solve(deal=None, *, random=None, rules="heather-1875", players=4, seed=None, misere=False, bid=None, trump=None, plays=None):
    """Double-dummy values: `napsim solve DEAL --json` (or `--random N`) as a dict.

    `deal` is the hands, "h0/h1/...", seat 0 declaring and leading; or give `random=N` for the
    distribution over N random deals at `players` seats.
    """
    text = _napsim.solve_json(rules, deal, random, players, seed, misere, bid, trump, plays)
    return json.loads(text)


def review(
    records,
    *,
    rules=None,
    worlds=1024,
    eval_play=None,
    others_bid=None,
    choice=None,
    seed=None,
    summary=False,
    threads=None,
    progress=None,
    move_time=None,
):
    """Played deals judged card by card and call by call: `napsim review - --json`.

    `records` is the `napsim deal --json` records: their text (one per line), one record as a
    dict, or a list of them. Returns the JSON Lines as a list of dicts (one per card in play
    order, then one per call, for each deal), or with `summary=True` the summary as a dict.
    `rules=None` reads each record under the profile it names.
    """
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, str):
        records = "".join(json.dumps(record) + "\n" for record in records)
    text = _napsim.review_json(rules, records, worlds, eval_play, others_bid, choice, seed, summary, threads, progress, move_time)
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    return lines[0] if summary else lines


class Game:
    """A session against napsim's bots, one decision at a time: what `napsim play` plays, for
    scripts.

    `advance()` lets the bots act until this seat must decide and returns the events on the
    way (dicts with a "type": "deal", "call", "declared", "card", "trick", "result", "end"...)
    and the question ("call", "card", "peek", "purchase", "keep", "discard", "trump"; None once
    the session is over). `answer(text)` takes the answer in the words `napsim play` takes
    ("three", "AS", "yes", "C", cards separated by spaces, "none") and returns the events it
    caused; an answer the game does not allow raises ValueError with the reason, and the
    question stands. `view()` is what the seat sees (its hand, the legal answers, the calls,
    the trick...), `hint()` the coach's hint for a call or a card, `records()` the finished
    deals as `napsim deal --json` records, for `review`. The same seed and answers play the
    same session as `napsim play`; asking for hints changes nothing.

        >>> import napsim
        >>> game = napsim.Game(seed=3, deals=1, bots="threshold/heuristic")
        >>> events, question = game.advance()
        >>> events[0]["type"], question
        ('deal', 'call')
        >>> game.view()["legal"]
        ['pass', 'three', 'four', 'nap']
        >>> while question is not None:
        ...     legal = game.view()["legal"]
        ...     caused = game.answer(legal[1] if question == "call" else legal[0])
        ...     events, question = game.advance()
        >>> result = [event for event in caused + events if event["type"] == "result"][0]
        >>> result["record"]["contract"]["bid"], result["record"]["declarer_tricks"]
        ('three', 2)
        >>> events[-1]["type"], len(game.records())
        ('end', 1)
    """

    def __init__(self, *, rules="heather-1875", players=4, seat=0, bots=None, seed=None, deals=None, hint_worlds=None, threads=None, move_time=None):
        self._game = _napsim.Game(rules, players, seat, bots, seed, deals, hint_worlds, threads, move_time)

    def advance(self):
        """Lets the bots act until this seat must decide: (events, question)."""
        events, question = self._game.advance()
        return json.loads(events), question

    def answer(self, text):
        """Answers the question standing; returns the events it caused."""
        return json.loads(self._game.answer(str(text)))

    def view(self):
        """What this seat sees now, as a dict."""
        return json.loads(self._game.view())

    def hint(self):
        """The coach's hint for the call or card asked (None for a call too rare to sample)."""
        return json.loads(self._game.hint())

    def records(self):
        """The finished deals as `napsim deal --json` records (a list of dicts)."""
        return json.loads(self._game.records())
