#!/usr/bin/env python3
"""A snake bot in Python: go for the pellet, but never into a dead end.

Run it (docs/bots/python/README.md has more):

    squarebattle run --game snake --bot "python3 docs/bots/python/snake.py" hungry

Snake is a rule mod (scripts/snake, docs/modding.md "Snake"). Every tick
the engine sends one round message with a call for each of the team's
units that must decide: in snake that is the team's one snake, while it is
alive. A call's view is exactly what a Lua snake player gets. The answer
holds one value per call, in the calls' order: "up", "down", "left" or
"right". (x is the column, y the row, (0, 0) the bottom left; up is y + 1.)

For each move that does not kill at once (a wall, a body that stays, the
snake's own neck) the bot counts the free cells it could still reach from
there, keeps the moves that leave it room to live, avoids cells another head
can reach this tick, and of what is left takes the one nearest the pellet.
"""

import botio

NAME = "Python Snake"

MOVES = {"up": (0, 1), "right": (1, 0), "down": (0, -1), "left": (-1, 0)}


def room(size, blocked, start, cap):
    """Count the free cells reachable from start (itself included), up to cap."""
    seen, todo = {start}, [start]
    while todo and len(seen) < cap:
        x, y = todo.pop()
        for dx, dy in MOVES.values():
            nxt = (x + dx, y + dy)
            if 0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in blocked and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return min(len(seen), cap)


def steer(view):
    """The move for one snake, from the view a Lua player would get."""
    size = view["size"]
    me = view["snakes"][view["me"]]
    head = (me["body"][0]["x"], me["body"][0]["y"])

    blocked = set()  # cells that will still hold a body after this tick
    danger = set()   # cells another snake's head can reach this tick
    for snake in view["snakes"]:
        body = [(p["x"], p["y"]) for p in snake["body"]]
        # A tail moves away this tick unless its snake is growing.
        blocked.update(body if snake["grow"] > 0 else body[:-1])
        if snake["team"] != view["me"] and body:
            hx, hy = body[0]
            danger.update((hx + dx, hy + dy) for dx, dy in MOVES.values())

    options = []  # (name, cell, room)
    want = 2 * len(me["body"]) + 4
    for name, (dx, dy) in MOVES.items():
        cell = (head[0] + dx, head[1] + dy)
        if 0 <= cell[0] < size and 0 <= cell[1] < size and cell not in blocked:
            options.append((name, cell, room(size, blocked | {cell}, cell, want)))
    if not options:
        return me["dir"]  # every move kills; keep going and hope

    most = max(r for _, _, r in options)
    pellet = view.get("pellet")

    def cost(option):
        _, (x, y), _ = option
        c = abs(pellet["x"] - x) + abs(pellet["y"] - y) if pellet else 0
        return c + (4 * size if (x, y) in danger else 0)

    roomy = [o for o in options if o[2] >= min(want, most)]
    return min(roomy, key=cost)[0]


class Team:
    """Snake needs no memory between ticks: every view has the whole board."""

    def __init__(self, hello):
        if hello["game"] != "snake":
            raise SystemExit("this bot plays snake, not " + hello["game"])

    def round(self, message):
        return {
            "type": "actions",
            "round": message["round"],   # echo the round and batch we answer
            "batch": message["batch"],
            # (None, JSON null, is no answer: the snake keeps its direction.)
            "answers": [steer(call["view"]) if call["view"] else None for call in message["calls"]],
        }


if __name__ == "__main__":
    botio.play(NAME, "calls", Team)
