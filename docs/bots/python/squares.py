#!/usr/bin/env python3
"""A SquareBattle bot in Python: attack, grow, spread out.

Run it (docs/bots/python/README.md has more):

    squarebattle run --bot "python3 docs/bots/python/squares.py" explorer

Every round the engine sends one message with all the team's squares that
may act, and the bot answers with one line of actions for all of them. So
unlike a Lua player, which is asked square by square, the bot sees the whole
team at once and can keep its squares out of each other's way directly.

Each square, in order:
  1. attacks an enemy next to it;
  2. replicates into the most open free cell when its time has come and the
     team is not too big;
  3. otherwise walks on, into the free cell with the fewest squares around
     it, keeping its heading when that is as good as any.
"""

import random

import botio

NAME = "Python Squares"

EMPTY, WALL = -1, -2  # view values; any other value is a team number

# Directions, in the order of the view: index 0 is north-west, clockwise.
# Row 0 is the bottom row, so north is row + 1.
DIRS = ["nw", "n", "ne", "e", "se", "s", "sw", "w"]
STEPS = [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)]

BIRTH_GAP = 150   # rounds a square waits between births, on top of the still time
TEAM_LIMIT = 60   # stop replicating at this many squares


class Team:
    """The bot's memory of one battle; round() answers one round message."""

    def __init__(self, hello):
        self.me = hello["team"]
        self.size = hello["size"]
        self.wrap = hello["wrap"]
        # Parent and child sit still this long after a birth.
        self.still = hello["constants"].get("replicate_rounds", 100)
        # Seeded from the battle's seed, so the same battle plays the same way.
        self.random = random.Random(hello["seed"] * 8 + self.me)
        self.memory = {}  # square id -> {"heading": d, "next_birth": round}

    def cell(self, row, col, d):
        """The cell one step from (row, col) in direction d."""
        row, col = row + STEPS[d][0], col + STEPS[d][1]
        if self.wrap:
            row, col = row % self.size, col % self.size
        return row, col

    def round(self, message):
        now = message["round"]
        squares = message["squares"]
        team_size = message["stats"][self.me]["squares"]
        for gone in message.get("died", []):
            self.memory.pop(gone["id"], None)

        # What the team knows of the arena this round: every cell some square
        # of ours can see, and the cells our squares stand on.
        seen = {}
        for sq in squares:
            seen[(sq["row"], sq["col"])] = self.me
            for d in range(8):
                seen[self.cell(sq["row"], sq["col"], d)] = sq["view"][d]

        def crowd(cell):
            """How many squares stand next to a cell, as far as we know."""
            row, col = cell
            return sum(1 for d in range(8) if seen.get(self.cell(row, col, d), EMPTY) >= 0)

        claimed = {}  # cell -> "move", "birth" or "attack": the team's plans
        actions = []
        for sq in squares:
            mem = self.memory.setdefault(sq["id"], {
                "heading": self.random.randrange(8),
                "next_birth": now + self.random.randint(20, 60),
            })
            row, col, view = sq["row"], sq["col"], sq["view"]
            # A cell is free when it was empty at the start of the round and
            # no teammate claimed it: moving or giving birth only there keeps
            # two of our squares from ever landing on one cell.
            free = [d for d in range(8)
                    if view[d] == EMPTY and self.cell(row, col, d) not in claimed]

            # 1. Attack: the first enemy around, looking from a random side.
            start = self.random.randrange(8)
            around = [(start + i) % 8 for i in range(8)]
            enemies = [d for d in around if view[d] not in (EMPTY, WALL, self.me)]
            if enemies:
                d = enemies[0]
                claimed[self.cell(row, col, d)] = "attack"
                actions.append({"id": sq["id"], "do": "attack", "dir": DIRS[d]})
                continue

            # 2. Replicate into the most open free cell when it is time.
            if free and now >= mem["next_birth"] and team_size < TEAM_LIMIT:
                d = min(free, key=lambda d: crowd(self.cell(row, col, d)))
                claimed[self.cell(row, col, d)] = "birth"
                mem["next_birth"] = now + self.still + BIRTH_GAP
                team_size += 1
                actions.append({"id": sq["id"], "do": "replicate", "dir": DIRS[d]})
                continue

            # 3. Move toward open space; the heading wins ties.
            if free:
                least = min(crowd(self.cell(row, col, d)) for d in free)
                best = [d for d in free if crowd(self.cell(row, col, d)) == least]
                d = mem["heading"] if mem["heading"] in best else self.random.choice(best)
                mem["heading"] = d
                claimed[self.cell(row, col, d)] = "move"
                actions.append({"id": sq["id"], "do": "move", "dir": DIRS[d]})
            # No free cell: leave the square out of the answer and it waits.
        return {"type": "actions", "round": now, "actions": actions}


if __name__ == "__main__":
    botio.play(NAME, "squares", Team)
