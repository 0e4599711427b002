// Package tournament plays many battles and ranks the players: the
// schedule, the parallel runner, the results files that shards write and
// merge, and the standings (win rates with Wilson intervals, Glicko-2
// ratings, a pairwise matrix).
//
// It knows nothing of Lua: the function that plays one battle is passed in
// (Play), so the command line wires in luabind and tests use a fake.
//
// Determinism: the schedule is a pure function of Params (format, games,
// seed, players). Results are kept by game index and everything computed
// from them walks the games in schedule order, never in the order battles
// finish, so the same Params give the same standings, byte for byte,
// whatever the number of workers or shards.
//
// Formats:
//
//   - roundrobin: every pair of players meets Games times; each of those
//     games is one seed played twice with the sides swapped, so a pair
//     plays 2×Games battles and neither side keeps the luckier start.
//   - koth (king of the hill): every player in every battle, Games battles;
//     the seating rotates from battle to battle (from an order shuffled by
//     the seed), so each player holds each team index equally often when
//     Games is a multiple of the number of players.
//   - solo: each player alone, Games battles each; battle k of every
//     player uses the same seed, and players are compared on it as if they
//     had met (more squares first, then more rounds survived).
//
// Scoring: within one battle (or, in solo, one seed) teams are ranked by
// squares at the end, then by the round they were wiped out (surviving
// beats being wiped out, later beats earlier). Every pair of players in it
// scores 1, ½ or 0 by that rank, so a koth battle of four counts as three
// results for each player. Win rates count draws as half a win. Ratings are
// Glicko-2 with every player starting at 1500/350/0.06 and τ = 0.5; a
// rating period is one round of the schedule (game k of every pairing), so
// all of a round's results are rated together against the ratings from
// before the round.
package tournament
