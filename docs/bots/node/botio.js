// botio: the talking half of a SquareBattle bot, shared by squares.js and
// snake.js. Node's standard library only: no packages to install.
//
// The engine and a bot exchange JSON messages, one a line (docs/bots.md):
//
//   engine -> bot   hello    once, with the game, the arena and the rules
//   bot -> engine   ready    once, with the bot's name
//   engine -> bot   round    every round
//   bot -> engine   actions  exactly one answer to every round
//   engine -> bot   end      once, with the result; then the bot exits
//
// The lines travel over the bot's stdin and stdout, or over TCP when the
// engine starts the bot with three arguments, ADDRESS PORT TEAM (the bot
// connects to the engine). Either way the messages are the same, so one
// file serves both.
//
// Standard output belongs to the protocol: a stray console.log() is a
// malformed answer. Debug with log() (console.error), which writes to
// standard error; the engine keeps it in the team's log.
'use strict';

const net = require('net');
const readline = require('readline');

// log prints a debugging line to standard error (the team's log).
function log(...args) {
  console.error(...args);
}

// connect opens the connection to the engine. argv is the command line
// after the script's name: empty for stdio, or ADDRESS PORT TEAM for TCP.
function connect(argv) {
  if (argv.length >= 3) {
    const socket = net.connect(Number(argv[1]), argv[0]);
    return { input: socket, output: socket };
  }
  return { input: process.stdin, output: process.stdout };
}

// play plays one battle.
//   name   the bot's name, sent with ready.
//   kind   the round messages the bot understands: "squares" (SquareBattle)
//          or "calls" (a rule mod such as snake).
//   start  called with the hello message; returns the team: an object whose
//          round(message) gives the actions message answering one round.
async function play(name, kind, start, argv = process.argv.slice(2)) {
  const { input, output } = connect(argv);
  // One write per message, ending in a newline. Writes to a pipe are
  // synchronous on Linux, so the engine has the line when write returns.
  const send = (message) => output.write(JSON.stringify(message) + '\n');
  const lines = readline.createInterface({ input, crlfDelay: Infinity });

  let team = null;
  for await (const line of lines) {
    const message = JSON.parse(line);
    if (team === null) {
      if (message.type !== 'hello' || message.protocol !== 1 || message.kind !== kind) {
        log(`this bot speaks protocol 1, kind ${kind}; got`, line.slice(0, 200));
        break;
      }
      team = start(message);
      send({ type: 'ready', name });
    } else if (message.type === 'round') {
      send(team.round(message));
    } else if (message.type === 'end') {
      log(`battle over: winner ${message.winner} - ${message.reason}`);
      break;
    }
    // Any other type is newer than this kit: ignore it.
  }
  lines.close();
  if (output !== process.stdout) output.end(); // TCP: close our side too
}

// random returns a function giving numbers in [0, 1) from a 32-bit seed
// (mulberry32): Node's Math.random cannot be seeded, and a bot seeded from
// the battle's seed plays the same battle the same way every time.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { log, play, random };
