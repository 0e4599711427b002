-- ===========================================================================
-- Starter: a small, complete player to copy and make your own.
-- ===========================================================================
--
-- How to use it:
--   1. Make your own copy, named after your player:
--        squarebattle new mine
--      writes scripts/mine.lua, this file with its name below changed to
--      "Mine" (by hand: copy this file to scripts/mine.lua and change
--      name = "Starter" below). The file name without ".lua" ("mine") is
--      the id of your player class; the name is what the game lists.
--   2. Check it and watch it:
--        squarebattle check scripts/mine.lua
--        squarebattle play mine explorer
--        squarebattle run mine explorer
--   (No squarebattle command? go install ./cmd/squarebattle makes one in
--   $(go env GOPATH)/bin; in the repository, go run ./cmd/squarebattle
--   works too.)
--
-- The whole guide is docs/scripting.md. The short version follows.
--
-- THE ARENA is a square grid that wraps around at every edge: walking off
-- the east side brings you back on the west side. Row 0 is the bottom row,
-- column 0 the left column. Going N adds one to the row, going E adds one to
-- the column.
--
-- A SQUARE is one of your pieces on the arena. Every round the game calls
-- your run function once for each of your squares (except the ones sitting
-- still after replicating, see below) and asks what it wants to do.
--
-- DIRECTIONS are the numbers NW=1, N=2, NE=3, E=4, SE=5, S=6, SW=7, W=8,
-- clockwise from the top left corner:
--
--        NW  N  NE            1  2  3
--        W   @   E            8  @  4
--        SW  S  SE            7  6  5
--
-- ACTIONS: return one of
--   WAIT                     do nothing (returning nothing does the same)
--   MOVE, dir                step into the neighbouring cell
--   ATTACK, dir              whoever stands in that cell when the round ends dies
--   REPLICATE, dir, class, data
--                            put a new square in that cell. class is the id
--                            of the script it will run (nil: this one), data
--                            is a table that becomes the child's `self`.
--
-- Everybody decides at the same time, looking at the arena as it was at the
-- start of the round; then all moves happen together, then every square in
-- an attacked cell dies, then any cell that ended up with two or more
-- squares in it kills all of them.
--
-- TRAP 1: your own team is not safe from you. Two of your squares stepping
-- into the same cell both die (that is the "collisions" statistic), and an
-- attack kills your own square just as well as an enemy. The game gives you
-- a way to avoid that, the team's plans: each square notes where it is going
-- with plan(), and the others check free() before they go. See below.
--
-- TRAP 2: replicating is slow. Parent and child both sit still for 100
-- rounds after a birth, without being asked anything, and anybody passing
-- by can attack them. Replicate when nobody is around, and not all the time.

-- THE TEAM'S PLANS. The squares of a team are asked one after the other,
-- so a square can see what its teammates decided earlier in the same round.
-- The game keeps a list of the cells the team has claimed this round, and
-- starts a fresh one every round. Three functions use it, always counting
-- from the square that is being asked (so they only work inside run):
--   plan(d, what)  claims the cell in direction d: "move" (the default),
--                  "birth", "attack" or anything else you like.
--   planned(d)     what a teammate claimed that cell for, or nil.
--   free(d)        true if the cell was empty at the start of the round
--                  AND nobody of the team has claimed it.
-- The rule that keeps teammates apart: only move or replicate into a cell
-- that is free(d), and claim it with plan(d, ...) as you do. Squares that
-- follow this rule, whatever their class, never collide with each other.
-- (For anything else the team needs to share, there is team_memory: one
-- table seen by all squares of your team for the whole battle.)

-- How long a square waits between two births (on top of the 100 rounds
-- it then sits still), and how big the team may grow.
local BIRTH_GAP = 150
local TEAM_LIMIT = 60

-- The script returns a table describing the player. The ---@type line is
-- only a hint for editors that use lua-language-server (see .luarc.json).
---@type Player
return {
  -- A name makes this a starting player: it appears in the list of players
  -- and can start a battle. A script without a name can only be replicated
  -- into (see tweedledum.lua).
  name = "Starter",
  -- Shown when your team wins, and next to its name once it is wiped out.
  victory = "Not bad for a beginner, huh?",
  defeat = "Back to the drawing board!",

  -- run is called once per round for every square that is not sitting still.
  --   self  a table of your own for this square. It is kept from round to
  --         round, so store whatever you want to remember in it. A new
  --         square starts with the data its parent gave it (or an empty
  --         table).
  --   team  your team's number. Teams are numbered 0, 1, 2, ...
  --   view  what is around the square, view[1] .. view[8] in direction
  --         order: EMPTY (-1) for an empty cell, otherwise the number of
  --         the team on it. Your own squares show up as `team`. (WALL, -2,
  --         only appears when the arena does not wrap.)
  --   row, col  where the square is.
  run = function(self, team, view, row, col)
    -- 1. Any enemy next to us? Attack it before it attacks us. We must
    --    check `view[d] ~= team`, or we would attack our own squares.
    for d = 1, 8 do
      if view[d] ~= EMPTY and view[d] ~= WALL and view[d] ~= team then
        plan(d, "attack") -- keep teammates out of the cell we strike
        return ATTACK, d
      end
    end

    -- 2. Nobody around: sometimes make a new square. math.random is fair
    --    but repeatable: the same battle seed gives the same numbers.
    --    round() is the current round; stats()[team].squares is how many
    --    squares our team has right now.
    if self.next_birth == nil then
      self.next_birth = round() + math.random(20, 60)
    end
    if round() >= self.next_birth and stats()[team].squares < TEAM_LIMIT then
      for d = 1, 8 do
        if free(d) then
          self.next_birth = round() + 100 + BIRTH_GAP
          plan(d, "birth")
          -- nil class: the child runs this same script. Its `self` starts
          -- as a copy of this table.
          return REPLICATE, d, nil, { heading = d, next_birth = self.next_birth }
        end
      end
    end

    -- 3. Otherwise explore: keep walking the same way, pick a new random
    --    way when blocked or once in a while.
    if self.heading == nil or math.random(10) == 1 then
      self.heading = math.random(8)
    end
    if free(self.heading) then
      plan(self.heading) -- the same as plan(self.heading, "move")
      return MOVE, self.heading
    end
    self.heading = math.random(8)
    return WAIT
  end,

  -- Optional: called once when one of your squares dies. killer is the name
  -- of the team that got it (it may be your own team after a collision),
  -- killer_team that team's number, row and col where it happened.
  eliminated = function(self, team, killer, row, col, killer_team)
    if killer_team ~= team then
      team_memory.enemy = killer -- remember who to watch out for
    end
  end,
}
