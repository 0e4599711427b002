#!/usr/bin/env node
// A SquareBattle bot in JavaScript (Node): attack, grow, spread out.
//
// Run it (docs/bots/node/README.md has more):
//
//   squarebattle run --bot "node docs/bots/node/squares.js" explorer
//
// Every round the engine sends one message with all the team's squares that
// may act, and the bot answers with one line of actions for all of them. So
// unlike a Lua player, which is asked square by square, the bot sees the
// whole team at once and can keep its squares out of each other's way
// directly.
//
// Each square, in order:
//   1. attacks an enemy next to it;
//   2. replicates into the most open free cell when its time has come and
//      the team is not too big;
//   3. otherwise walks on, into the free cell with the fewest squares
//      around it, keeping its heading when that is as good as any.
'use strict';

const botio = require('./botio');

const NAME = 'Node Squares';

const EMPTY = -1; // view values: -2 is beyond the edge, any value >= 0 a team

// Directions, in the order of the view: index 0 is north-west, clockwise.
// Row 0 is the bottom row, so north is row + 1.
const DIRS = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];
const STEPS = [[1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1]];

const BIRTH_GAP = 150; // rounds a square waits between births, on top of the still time
const TEAM_LIMIT = 60; // stop replicating at this many squares

// The bot's memory of one battle; round() answers one round message.
class Team {
  constructor(hello) {
    this.me = hello.team;
    this.size = hello.size;
    this.wrap = hello.wrap;
    // Parent and child sit still this long after a birth.
    this.still = 'replicate_rounds' in hello.constants ? hello.constants.replicate_rounds : 100;
    // Seeded from the battle's seed, so the same battle plays the same way.
    this.random = botio.random(hello.seed * 8 + this.me);
    this.memory = new Map(); // square id -> { heading, nextBirth }
  }

  // randint returns a whole number from lo to hi, both included.
  randint(lo, hi) {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  // cell names the cell one step from (row, col) in direction d, as a
  // "row,col" string usable as a Map key.
  cell(row, col, d) {
    row += STEPS[d][0];
    col += STEPS[d][1];
    if (this.wrap) {
      row = (row + this.size) % this.size;
      col = (col + this.size) % this.size;
    }
    return `${row},${col}`;
  }

  round(message) {
    const now = message.round;
    let teamSize = message.stats[this.me].squares;
    for (const gone of message.died) this.memory.delete(gone.id);

    // What the team knows of the arena this round: every cell some square
    // of ours can see, and the cells our squares stand on.
    const seen = new Map();
    for (const sq of message.squares) {
      seen.set(`${sq.row},${sq.col}`, this.me);
      sq.view.forEach((v, d) => seen.set(this.cell(sq.row, sq.col, d), v));
    }
    // crowd counts the squares next to a cell, as far as we know.
    const crowd = (key) => {
      const [row, col] = key.split(',').map(Number);
      // (A cell none of us sees is undefined, and undefined >= 0 is false.)
      return DIRS.filter((_, d) => seen.get(this.cell(row, col, d)) >= 0).length;
    };

    const claimed = new Map(); // cell -> "move", "birth" or "attack": the team's plans
    const actions = [];
    for (const sq of message.squares) {
      if (!this.memory.has(sq.id)) {
        this.memory.set(sq.id, { heading: this.randint(0, 7), nextBirth: now + this.randint(20, 60) });
      }
      const mem = this.memory.get(sq.id);
      const target = (d) => this.cell(sq.row, sq.col, d);
      // A cell is free when it was empty at the start of the round and no
      // teammate claimed it: moving or giving birth only there keeps two of
      // our squares from ever landing on one cell.
      const free = [0, 1, 2, 3, 4, 5, 6, 7].filter((d) => sq.view[d] === EMPTY && !claimed.has(target(d)));

      // 1. Attack: the first enemy around, looking from a random side.
      const start = this.randint(0, 7);
      const around = DIRS.map((_, i) => (start + i) % 8);
      const enemy = around.find((d) => sq.view[d] >= 0 && sq.view[d] !== this.me);
      if (enemy !== undefined) {
        claimed.set(target(enemy), 'attack');
        actions.push({ id: sq.id, do: 'attack', dir: DIRS[enemy] });
        continue;
      }

      // 2. Replicate into the most open free cell when it is time.
      if (free.length > 0 && now >= mem.nextBirth && teamSize < TEAM_LIMIT) {
        const d = free.reduce((a, b) => (crowd(target(b)) < crowd(target(a)) ? b : a));
        claimed.set(target(d), 'birth');
        mem.nextBirth = now + this.still + BIRTH_GAP;
        teamSize += 1;
        actions.push({ id: sq.id, do: 'replicate', dir: DIRS[d] });
        continue;
      }

      // 3. Move toward open space; the heading wins ties.
      if (free.length > 0) {
        const least = Math.min(...free.map((d) => crowd(target(d))));
        const best = free.filter((d) => crowd(target(d)) === least);
        const d = best.includes(mem.heading) ? mem.heading : best[this.randint(0, best.length - 1)];
        mem.heading = d;
        claimed.set(target(d), 'move');
        actions.push({ id: sq.id, do: 'move', dir: DIRS[d] });
      }
      // No free cell: leave the square out of the answer and it waits.
    }
    return { type: 'actions', round: now, actions };
  }
}

botio.play(NAME, 'squares', (hello) => new Team(hello));
