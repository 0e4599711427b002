-- Expand: grow, grow, grow.
--
-- Whenever a square may act and has an empty neighbour, it replicates into
-- it, straight neighbours first, so the team spreads as a solid blob that
-- doubles every hundred rounds or so. An enemy next to it is attacked
-- first. The catch: the squares on the edge of the blob spend almost all of
-- their time sitting still after a birth, and anybody passing by can pick
-- them off.

local DR = { 1, 1, 1, 0, -1, -1, -1, 0 }
local DC = { -1, 0, 1, 1, 1, 0, -1, -1 }

local function cell_of(row, col, d)
  local n = board_size()
  return ((row + DR[d]) % n) * n + (col + DC[d]) % n
end

-- The team's plans for this round: cell number -> "move", "birth" or
-- "attack" (see docs/scripting.md).
local function plans()
  local p = team_memory.plans
  if p == nil or p.round ~= round() then
    p = { round = round() }
    team_memory.plans = p
  end
  return p
end

local function free(view, row, col, d)
  return view[d] == EMPTY and plans()[cell_of(row, col, d)] == nil
end

local function plan(row, col, d, what)
  plans()[cell_of(row, col, d)] = what
end

local STRAIGHT = { N, E, S, W }
local DIAGONAL = { NE, SE, SW, NW }
local RINGS = { STRAIGHT, DIAGONAL }

---@type Player
return {
  name = "Expand",
  victory = "There is no more room. There is only Expand.",
  defeat = "We needed just a little more space.",

  run = function(self, team, view, row, col)
    for d = 1, 8 do
      local v = view[d]
      if v >= 0 and v ~= team then
        plan(row, col, d, "attack")
        return ATTACK, d
      end
    end
    local k = math.random(4)
    for r = 1, 2 do
      local dirs = RINGS[r]
      for i = 0, 3 do
        local d = dirs[(k + i - 1) % 4 + 1]
        if free(view, row, col, d) then
          plan(row, col, d, "birth")
          return REPLICATE, d
        end
      end
    end
    return WAIT -- nothing but teammates around: hold the middle
  end,
}
