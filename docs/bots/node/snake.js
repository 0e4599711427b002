#!/usr/bin/env node
// A snake bot in JavaScript (Node): go for the pellet, but never into a
// dead end.
//
// Run it (docs/bots/node/README.md has more):
//
//   squarebattle run --game snake --bot "node docs/bots/node/snake.js" hungry
//
// Snake is a rule mod (scripts/snake, docs/modding.md "Snake"). Every tick
// the engine sends one round message with a call for each of the team's
// units that must decide: in snake that is the team's one snake, while it
// is alive. A call's view is exactly what a Lua snake player gets. The
// answer holds one value per call, in the calls' order: "up", "down",
// "left" or "right". (x is the column, y the row, (0, 0) the bottom left;
// up is y + 1.)
//
// For each move that does not kill at once (a wall, a body that stays, the
// snake's own neck) the bot counts the free cells it could still reach
// from there, keeps the moves that leave it room to live, avoids cells
// another head can reach this tick, and of what is left takes the one
// nearest the pellet.
'use strict';

const botio = require('./botio');

const NAME = 'Node Snake';

const MOVES = { up: [0, 1], right: [1, 0], down: [0, -1], left: [-1, 0] };

// list reads a Lua sequence from a view: an empty Lua table may arrive as
// {} instead of [], so anything that is not an array counts as empty.
const list = (v) => (Array.isArray(v) ? v : []);

// room counts the free cells reachable from (x, y), itself included, up to cap.
function room(size, blocked, x, y, cap) {
  const seen = new Set([`${x},${y}`]);
  const todo = [[x, y]];
  while (todo.length > 0 && seen.size < cap) {
    const [cx, cy] = todo.pop();
    for (const [dx, dy] of Object.values(MOVES)) {
      const nx = cx + dx;
      const ny = cy + dy;
      const key = `${nx},${ny}`;
      if (nx >= 0 && nx < size && ny >= 0 && ny < size && !blocked.has(key) && !seen.has(key)) {
        seen.add(key);
        todo.push([nx, ny]);
      }
    }
  }
  return Math.min(seen.size, cap);
}

// steer picks the move for one snake, from the view a Lua player would get.
function steer(view) {
  const size = view.size;
  const snakes = list(view.snakes);
  const me = snakes[view.me];
  const head = list(me.body)[0];

  const blocked = new Set(); // cells that will still hold a body after this tick
  const danger = new Set(); // cells another snake's head can reach this tick
  for (const snake of snakes) {
    const body = list(snake.body);
    // A tail moves away this tick unless its snake is growing.
    const stays = snake.grow > 0 ? body : body.slice(0, -1);
    for (const p of stays) blocked.add(`${p.x},${p.y}`);
    if (snake.team !== view.me && body.length > 0) {
      for (const [dx, dy] of Object.values(MOVES)) danger.add(`${body[0].x + dx},${body[0].y + dy}`);
    }
  }

  const want = 2 * list(me.body).length + 4;
  const options = []; // { name, x, y, room }
  for (const [name, [dx, dy]] of Object.entries(MOVES)) {
    const x = head.x + dx;
    const y = head.y + dy;
    const key = `${x},${y}`;
    if (x >= 0 && x < size && y >= 0 && y < size && !blocked.has(key)) {
      blocked.add(key);
      options.push({ name, x, y, room: room(size, blocked, x, y, want) });
      blocked.delete(key);
    }
  }
  if (options.length === 0) return me.dir; // every move kills; keep going and hope

  const most = Math.max(...options.map((o) => o.room));
  const pellet = view.pellet;
  const cost = (o) =>
    (pellet ? Math.abs(pellet.x - o.x) + Math.abs(pellet.y - o.y) : 0) + (danger.has(`${o.x},${o.y}`) ? 4 * size : 0);
  const roomy = options.filter((o) => o.room >= Math.min(want, most));
  return roomy.reduce((a, b) => (cost(b) < cost(a) ? b : a)).name;
}

botio.play(NAME, 'calls', (hello) => {
  if (hello.game !== 'snake') throw new Error(`this bot plays snake, not ${hello.game}`);
  // Snake needs no memory between ticks: every view has the whole board.
  return {
    round: (message) => ({
      type: 'actions',
      round: message.round, // echo the round and batch we answer
      batch: message.batch,
      // (null is no answer: the snake keeps its direction.)
      answers: message.calls.map((call) => (call.view ? steer(call.view) : null)),
    }),
  };
});
