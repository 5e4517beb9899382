#!/usr/bin/env python3
"""A napsim bot that misbehaves on its first card request, as its argument says: `crash`
(exits with status 3), `exit` (exits with status 0, as if done), `hang` (never answers),
`illegal` (a card not in its hand), `garbage` (a line that is not JSON), `twice` (its answer
on two lines), `huge` (a 4 MB line), `spawn` (starts a detached child that sleeps, then
crashes), `fine` (never). With the prefix `bid-` (`bid-crash`) it misbehaves on a call request
instead (an illegal call is one of no profile). An optional second argument N delays it to the
N-th such request; further arguments are ignored (the tests tag their processes with them, and
a spawned child carries them too). Used by tests/play/ext_bots.rs and tests/play/play_tests.rs."""
import json
import subprocess
import sys
import time

how = sys.argv[1]
on = "bid" if how.startswith("bid-") else "play"
how = how.removeprefix("bid-")
after = int(sys.argv[2]) if len(sys.argv) > 2 else 1
asked = 0


def common(how_now):
    """The misbehaviours that do not depend on the request."""
    if how_now == "spawn":
        subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(600)"] + sys.argv[1:],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        how_now = "crash"
    if how_now == "crash":
        sys.stderr.write("misbehave: crashing on purpose\n")
        sys.exit(3)
    if how_now == "exit":
        sys.exit(0)
    if how_now == "hang":
        time.sleep(3600)


for line in sys.stdin:
    request = json.loads(line)
    kind = request["type"]
    if kind in ("bid", "play") and kind == on:
        asked += 1
    how_now = how if kind == on and asked >= after else "fine"
    if kind == "hello":
        answer = {"name": "misbehave-" + how}
    elif kind == "bid":
        common(how_now)
        if how_now == "illegal":
            answer = {"call": "no-such-call"}
        else:
            answer = {"call": request["legal"][0]}
    elif kind == "play":
        common(how_now)
        if how_now == "illegal":
            pack = [r + s for r in "23456789TJQKA" for s in "SHDC"]
            answer = {"card": next(c for c in pack if c not in request["hand"].split())}
        elif how_now == "garbage":
            print("this is not json", flush=True)
            continue
        elif how_now == "twice":
            answer = {"card": request["legal"][0]}
            print(json.dumps(answer), flush=True)
        elif how_now == "huge":
            print("x" * (4 << 20), flush=True)
            continue
        else:
            answer = {"card": request["legal"][0]}
    else:
        answer = {}
    print(json.dumps(answer), flush=True)
