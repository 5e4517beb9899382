#!/usr/bin/env python3
"""bots/lowest_bot.py, writing every line it receives and its answer to the file named by its
first argument (`> ` before a request, `< ` before an answer). Used by tests/docs/protocol_doc.rs to
check the worked exchanges of docs/protocol.md."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bots"))
from lowest_bot import answer  # noqa: E402

with open(sys.argv[1], "a") as record:
    for line in sys.stdin:
        reply = json.dumps(answer(json.loads(line)))
        record.write("> " + line.rstrip("\n") + "\n< " + reply + "\n")
        record.flush()
        print(reply, flush=True)
