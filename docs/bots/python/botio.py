"""botio: the talking half of a SquareBattle bot, shared by squares.py and snake.py.

The engine and a bot exchange JSON messages, one a line (docs/bots.md):

    engine -> bot   hello    once, with the game, the arena and the rules
    bot -> engine   ready    once, with the bot's name
    engine -> bot   round    every round
    bot -> engine   actions  exactly one answer to every round
    engine -> bot   end      once, with the result; then the bot exits

The lines travel over the bot's stdin and stdout, or over TCP when the
engine starts the bot with three arguments, ADDRESS PORT TEAM (the bot
connects to the engine). Either way the messages are the same, so one file
serves both.

Standard output belongs to the protocol: a stray print() there is a
malformed answer. Debug with log(), which writes to standard error; the
engine keeps it in the team's log.
"""

import json
import socket
import sys


def log(*args):
    """Print a debugging line to standard error (the team's log)."""
    print(*args, file=sys.stderr, flush=True)


def connect(argv):
    """Open the connection to the engine: (reader, writer) file objects.

    argv is the command line after the program's name: empty for stdio, or
    ADDRESS PORT TEAM for TCP.
    """
    if len(argv) >= 3:
        sock = socket.create_connection((argv[0], int(argv[1])))
        return sock.makefile("r", encoding="utf-8"), sock.makefile("w", encoding="utf-8")
    # The protocol is UTF-8 whatever the locale says.
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8")
    return sys.stdin, sys.stdout


def play(name, kind, start, argv=None):
    """Play one battle, then return.

    name   the bot's name, sent with ready.
    kind   the round messages the bot understands: "squares" (SquareBattle)
           or "calls" (a rule mod such as snake).
    start  called with the hello message; returns the team: an object whose
           round(message) gives the actions message answering one round.
    """
    reader, writer = connect(sys.argv[1:] if argv is None else argv)

    def send(message):
        # Compact JSON and a newline; flush so the engine gets it now and
        # not when a buffer fills.
        writer.write(json.dumps(message, separators=(",", ":")) + "\n")
        writer.flush()

    def receive():
        line = reader.readline()
        return json.loads(line) if line else None  # None: the engine hung up

    hello = receive()
    if hello is None or hello.get("type") != "hello":
        log("expected hello, got", hello)
        return
    if hello.get("protocol") != 1 or hello.get("kind") != kind:
        log("this bot speaks protocol 1, kind", kind, "- not", hello.get("protocol"), hello.get("kind"))
        return
    team = start(hello)
    send({"type": "ready", "name": name})
    while True:
        message = receive()
        if message is None or message.get("type") == "end":
            if message is not None:
                log("battle over: winner", message.get("winner"), "-", message.get("reason"))
            return
        if message.get("type") == "round":
            send(team.round(message))
        # Any other type is newer than this kit: ignore it.
