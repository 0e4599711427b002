"""A bot that breaks the protocol one way, for check --bot's tests.

python3 faultbot.py MODE: plays SquareBattle (every square waits) or a
rule mod (every call unanswered) correctly, except as MODE says:

  noflush    writes ready without flushing: the engine never sees it
  badready   answers hello with something other than ready
  garbage    answers round 2 (and later) with a line that is not JSON
  badorder   orders a square of each round to move "north"
  badid      names a square that is not one of the round's
  slow       answers every round after its deadline (retired at max_faults)
  crash      raises an exception at round 2, its traceback on stderr
  chatty     writes a line after end
  linger     does not exit after end
  good       no fault
"""
import json
import sys
import time

mode = sys.argv[1]


def say(obj, flush=True):
    sys.stdout.write(json.dumps(obj) + "\n")
    if flush:
        sys.stdout.flush()


hello = None
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        hello = msg
        print("faultbot: " + mode, file=sys.stderr, flush=True)
        if mode == "noflush":
            say({"type": "ready", "name": "Fault Bot"}, flush=False)
        elif mode == "badready":
            say({"type": "actions", "round": 0, "actions": []})
        else:
            say({"type": "ready", "name": "Fault Bot"})
        continue
    if kind == "end":
        if mode == "chatty":
            say({"type": "ready", "name": "still here"})
        if mode == "linger":
            time.sleep(30)
        break
    rnd = msg["round"]
    answer = {"type": "actions", "round": rnd}
    if hello["kind"] == "calls":
        answer["batch"] = msg["batch"]
        answer["answers"] = []
    else:
        answer["actions"] = []
    if mode == "crash" and rnd >= 2:
        print("faultbot: about to divide by zero", file=sys.stderr, flush=True)
        1 / 0
    if mode == "garbage" and rnd >= 2:
        sys.stdout.write("hello world\n")
        sys.stdout.flush()
        continue
    if mode == "badorder" and hello["kind"] == "squares" and msg["squares"]:
        answer["actions"] = [{"id": msg["squares"][0]["id"], "do": "move", "dir": "north"}]
    if mode == "badid" and hello["kind"] == "squares":
        answer["actions"] = [{"id": 999999, "do": "wait"}]
    if mode == "slow":
        time.sleep(hello["time"]["round_ms"] / 1000 * 1.5)
    say(answer)
