"""The Python package against the command line: the same numbers for the same arguments."""

import json
import os
import subprocess

import pytest

import napsim

NAPSIM = os.environ.get("NAPSIM_BIN", os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "napsim"))


def cli_json(*args):
    out = subprocess.run([NAPSIM, *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({"seed": 1, "worlds": 300}, ["--seed", "1", "--worlds", "300"]),
        (
            {"seed": 2, "worlds": 200, "players": 5, "seat": 2, "after": "pass,three"},
            ["--seed", "2", "--worlds", "200", "--players", "5", "--seat", "2", "--after", "pass,three"],
        ),
        (
            {"seed": 3, "worlds": 256, "rules": "pub-guide", "play": "heuristic", "dd": False},
            ["--seed", "3", "--worlds", "256", "--rules", "pub-guide", "--play", "heuristic", "--no-dd"],
        ),
        ({"seed": 4, "precision": 4.0, "as_declarer": True}, ["--seed", "4", "--precision", "4", "--as-declarer"]),
    ],
)
def test_hand_gives_the_command_lines_document(kwargs, flags):
    doc = napsim.hand("AH KH 9H 7D 2C", **kwargs)
    assert doc == cli_json("hand", "AH KH 9H 7D 2C", "--json", *flags)
    assert doc["recommended"]
    assert doc["bids"]


def test_the_default_run_recommends_what_the_command_line_does():
    assert napsim.hand("AH KH 9H 7D 2C", seed=1)["recommended"] == cli_json("hand", "AH KH 9H 7D 2C", "--seed", "1", "--json")["recommended"]


def test_a_run_without_a_seed_records_the_one_it_chose():
    doc = napsim.hand("AH KH 9H 7D 2C", worlds=64, play="heuristic")
    again = napsim.hand("AH KH 9H 7D 2C", worlds=64, play="heuristic", seed=doc["seed"])
    assert doc == again


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        ({"rules": "no-such-profile"}, "no-such-profile"),
        ({"players": 9}, "players"),
        ({"play": "nonsense"}, "nonsense"),
    ],
)
def test_bad_input_raises_value_error_with_the_command_lines_message(kwargs, needle):
    with pytest.raises(ValueError) as raised:
        napsim.hand("AH KH 9H 7D 2C", worlds=10, seed=1, **kwargs)
    assert needle in str(raised.value)


def test_an_input_is_named_as_the_keyword_where_the_command_line_names_its_flag():
    with pytest.raises(ValueError) as raised:
        napsim.hand("AH KH 9H 7D 2C", seat=1, after="bogus", worlds=10, seed=1)
    library = str(raised.value)
    cli = subprocess.run([NAPSIM, "hand", "AH KH 9H 7D 2C", "--seat", "1", "--after", "bogus",
                          "--worlds", "10", "--seed", "1"], capture_output=True, text=True)
    assert cli.returncode == 2
    assert "--" not in library and "`after`" in library
    assert cli.stderr.strip() == "error: " + library.replace("`after`", "--after")


def test_bad_cards_raise_value_error():
    with pytest.raises(ValueError, match="ZZ"):
        napsim.hand("AH KH 9H 7D ZZ", seed=1)


def test_the_version_is_the_builds():
    out = subprocess.run([NAPSIM, "--version"], check=True, capture_output=True, text=True)
    assert out.stdout.split()[1].split("+")[0] == napsim.__version__.split("+")[0]


ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_the_examples_of_docs_python_md_and_the_module_run_as_shown():
    import doctest

    flags = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL
    failed, tried = doctest.testfile(os.path.join(ROOT, "docs", "python.md"), module_relative=False, optionflags=flags)
    assert tried >= 4 and failed == 0
    failed, tried = doctest.testmod(napsim, optionflags=flags)
    assert tried >= 2 and failed == 0


def test_the_readmes_python_example_runs():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = readme.split("## From Python", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    out = subprocess.run(["python", "-c", code], check=True, capture_output=True, text=True, env=dict(os.environ, PATH=os.path.dirname(os.sys.executable) + os.pathsep + os.environ["PATH"]))
    expected = cli_json("hand", "AH KH 9H 7D 2C", "--seed", "1", "--json")["recommended"]
    assert out.stdout.strip() == expected


def cli_csv(*args):
    import csv
    import io

    out = subprocess.run([NAPSIM, *args], check=True, capture_output=True, text=True)
    return list(csv.DictReader(io.StringIO(out.stdout)))


def rows_as_text(table):
    """A table from napsim.simulate as CSV-like text rows, whether a DataFrame or dicts."""
    if hasattr(table, "to_dict"):
        table = table.to_dict("records")
    return [{key: str(value) for key, value in row.items()} for row in table]


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({"deals": 20_000, "seed": 7}, ["--deals", "20000", "--seed", "7"]),
        (
            {"deals": 5_000, "seed": 8, "players": 5, "rules": "pub-guide", "play": "expert", "threads": 1},
            ["--deals", "5000", "--seed", "8", "--players", "5", "--rules", "pub-guide", "--play", "expert", "--threads", "1"],
        ),
    ],
)
def test_simulate_gives_the_command_lines_rows(kwargs, flags):
    rows = napsim.simulate(**kwargs)
    expected = cli_csv("simulate", "--out", "-", "--quiet", *flags)
    assert_same_rows(rows, expected)


def test_ctrl_c_stops_a_long_simulation_within_two_seconds():
    # Python raises KeyboardInterrupt only when it starts with SIGINT at its default, as an
    # interactive session does; a child of a background job inherits it ignored.
    code = (
        "import napsim, signal, time, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "print('started', flush=True)\n"
        "start = time.monotonic()\n"
        "try:\n"
        "    napsim.simulate(deals=10**12, seed=1)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    import signal
    import time

    import tempfile

    here = tempfile.mkdtemp()
    # Its own temporary directory too, to see that nothing is saved there either.
    scratch = tempfile.mkdtemp()
    env = dict(os.environ, TMPDIR=scratch)
    child = subprocess.Popen(
        [os.sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=here, env=env
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        child.kill()
        child.wait()
    assert "interrupted" in out
    assert child.returncode == 0
    assert took < 2.0, f"stopped {took:.2f} s after Ctrl-C"
    assert os.listdir(here) == [], "nothing left behind"
    assert os.listdir(scratch) == [], "nothing saved in the temporary directory"


def test_simulate_refuses_bad_input_with_value_error():
    with pytest.raises(ValueError, match="nonsense"):
        napsim.simulate(deals=100, seed=1, bid="nonsense")


def assert_same_rows(rows, expected):
    got = rows_as_text(rows)
    assert len(got) == len(expected) > 0
    for row, want in zip(got, expected):
        assert row.keys() == want.keys()
        for key in want:
            same = row[key] == want[key] or (want[key] == "" and row[key] in ("nan", "None"))
            if not same and want[key] not in ("", "true", "false"):
                try:
                    same = float(row[key]) == float(want[key])
                except ValueError:
                    pass
            if not same and want[key] in ("true", "false"):
                same = row[key] == str(want[key] == "true")
            assert same, (key, row[key], want[key])


def test_bid_table_gives_the_command_lines_rows_and_reports_progress():
    seen = []
    rows = napsim.bid_table(deals=20_000, seed=5, threads=2, min_hands=100, progress=lambda done, total: seen.append((done, total)))
    expected = cli_csv("bid-table", "--out", "-", "--quiet", "--deals", "20000", "--seed", "5", "--min-hands", "100")
    assert_same_rows(rows, expected)
    assert seen and seen[-1] == (20_000, 20_000)
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))


def test_thresholds_gives_the_command_lines_rows():
    rows = napsim.thresholds(deals=5_000, seed=6, players=5, seat=1)
    expected = cli_csv("thresholds", "--out", "-", "--quiet", "--deals", "5000", "--seed", "6", "--players", "5", "--seat", "1")
    assert_same_rows(rows, expected)


def test_tournament_gives_the_command_lines_rows():
    entrants = {"t": "threshold/heuristic", "a": "always:bid=three/heuristic"}
    rows = napsim.tournament(entrants, sessions=60, seed=2)
    expected = cli_csv(
        "tournament", "--out", "-", "--quiet", "--sessions", "60", "--seed", "2", "--entrant", "t=threshold/heuristic", "--entrant", "a=always:bid=three/heuristic"
    )
    assert_same_rows(rows, expected)


def test_solve_gives_the_command_lines_document():
    deal = "AS KS QS JS TS/2H 3H 4H 5H 6H/2C 3C 4C 5C 6C/2D 3D 4D 5D 6D"
    assert napsim.solve(deal) == cli_json("solve", deal, "--json")
    # Apart from the time each solve took.
    doc = napsim.solve(random=50, seed=4, players=5)
    expected = cli_json("solve", "--random", "50", "--seed", "4", "--players", "5", "--json")
    assert doc.pop("time_us").keys() == expected.pop("time_us").keys()
    assert doc == expected
    with pytest.raises(ValueError):
        napsim.solve()


def test_review_gives_the_command_lines_lines():
    records = subprocess.run([NAPSIM, "deal", "--json", "--seed", "5", "--count", "2"], check=True, capture_output=True, text=True).stdout
    lines = napsim.review(records, worlds=64)
    out = subprocess.run([NAPSIM, "review", "-", "--json", "--worlds", "64", "--quiet"], input=records, check=True, capture_output=True, text=True).stdout
    assert lines == [json.loads(line) for line in out.splitlines()]
    as_dicts = [json.loads(line) for line in records.splitlines()]
    assert napsim.review(as_dicts, worlds=64) == lines
    summary = napsim.review(records, worlds=64, summary=True)
    out = subprocess.run([NAPSIM, "review", "-", "--json", "--worlds", "64", "--summary", "--quiet"], input=records, check=True, capture_output=True, text=True).stdout
    assert summary == json.loads(out)


def running(tag):
    out = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True)
    return out.returncode == 0


def test_a_failing_external_bot_raises_and_leaves_no_process():
    tag = f"tag-python-{os.getpid()}"
    bot = f"ext:cmd=(python3 {ROOT}/tests/bots/misbehave.py crash 5 {tag})"
    with pytest.raises(RuntimeError, match="exited with status 3"):
        napsim.tournament({"bot": f"threshold/{bot}", "h": "threshold/heuristic"}, sessions=20, seed=1)
    assert not running(tag)
    with pytest.raises(RuntimeError, match="exited with status 3"):
        napsim.simulate(deals=2_000, seed=1, play=bot)
    assert not running(tag)


def test_without_pandas_the_tables_are_lists_of_dicts_with_numbers(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    rows = napsim.simulate(deals=2_000, seed=3)
    assert isinstance(rows, list) and isinstance(rows[0], dict)
    assert isinstance(rows[0]["players"], int)
    assert_same_rows(rows, cli_csv("simulate", "--out", "-", "--quiet", "--deals", "2000", "--seed", "3"))


def play_game(game):
    """Plays a session through: the second legal call (else the first), the first legal card,
    no peek or purchase; returns the answers given."""
    answers = []
    events, question = game.advance()
    assert not events or events[0]["type"] == "deal"
    while question is not None:
        view = game.view()
        assert view["question"] == question
        legal = view["legal"]
        if question == "call" and len(legal) > 1:
            text = legal[1]
        elif question == "keep":
            text = " ".join(legal[:5])
        elif question == "purchase":
            text = "none"
        else:
            text = legal[0]
        game.answer(text)
        answers.append(text)
        events, question = game.advance()
    assert events[-1]["type"] == "end"
    return answers


@pytest.mark.parametrize("rules, players, seat", [("heather-1875", 4, 1), ("peep-nap", 5, 0), ("purchase-nap", 4, 2)])
def test_a_game_plays_what_napsim_play_plays_for_the_same_answers(rules, players, seat, tmp_path):
    game = napsim.Game(rules=rules, players=players, seat=seat, seed=21, deals=3, bots="threshold/heuristic")
    answers = play_game(game)
    save = tmp_path / "s.jsonl"
    subprocess.run(
        [NAPSIM, "--rules", rules, "play", "--players", str(players), "--seat", str(seat), "--seed", "21", "--deals", "3", "--bots", "threshold/heuristic", "--save", str(save)],
        input="\n".join(answers) + "\n",
        check=True,
        capture_output=True,
        text=True,
    )
    saved = [json.loads(line) for line in save.read_text().splitlines()]
    assert game.records() == saved
    assert sum(game.view()["balances"]) + (saved[-1].get("kitty_after") or 0) == 0


def test_a_game_refuses_a_wrong_answer_and_its_hints_change_nothing():
    plain = napsim.Game(seed=4, deals=2, bots="threshold/heuristic", hint_worlds=64, threads=1)
    hinted = napsim.Game(seed=4, deals=2, bots="threshold/heuristic", hint_worlds=64, threads=1)
    _, question = hinted.advance()
    assert question == "call"
    hint = hinted.hint()
    assert hint["type"] == "hint" and hint["best"] in hinted.view()["legal"]
    with pytest.raises(ValueError, match="is not a call"):
        hinted.answer("AS")
    assert hinted.view()["question"] == "call"
    play_game(plain)
    play_game(hinted)
    assert plain.records() == hinted.records()
    with pytest.raises(ValueError, match="seat"):
        napsim.Game(seat=4)


def test_move_time_bounds_a_hanging_bot_and_nothing_is_left_running():
    import time

    tag = f"tag-python-hang-{os.getpid()}"
    bot = f"ext:cmd=(python3 {ROOT}/tests/bots/misbehave.py hang 1 {tag})"
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="did not answer within 0.5 s"):
        napsim.simulate(deals=100, seed=1, play=bot, move_time=0.5, threads=1)
    assert time.monotonic() - start < 10
    assert not running(tag)
    with pytest.raises(ValueError, match="move_time"):
        napsim.simulate(deals=100, seed=1, move_time=0)


def test_a_profile_is_given_by_name_or_by_the_path_of_its_toml(tmp_path):
    toml = os.path.join(ROOT, "configs", "rules", "pub-guide.toml")
    by_path = napsim.simulate(rules=toml, players=5, deals=3_000, seed=9)
    assert_same_rows(by_path, cli_csv("--rules", toml, "simulate", "--out", "-", "--quiet", "--players", "5", "--deals", "3000", "--seed", "9"))
    doc = napsim.hand("AH KH 9H 7D 2C", rules=toml, worlds=64, play="heuristic", seed=2)
    assert doc == cli_json("--rules", toml, "hand", "AH KH 9H 7D 2C", "--worlds", "64", "--play", "heuristic", "--seed", "2", "--json")
    game = napsim.Game(rules=toml, players=3, seed=1, deals=1, bots="threshold/heuristic")
    assert game.advance()[1] is not None
    with pytest.raises(ValueError):
        napsim.simulate(rules=str(tmp_path / "missing.toml"), deals=10)
