-- Expand: grow, grow, grow.
--
-- Whenever a square may act and has an empty neighbour, it replicates into
-- it, straight neighbours first, so the team spreads as a solid blob that
-- doubles every hundred rounds or so. An enemy next to it is attacked
-- first. The catch: the squares on the edge of the blob spend almost all of
-- their time sitting still after a birth, and anybody passing by can pick
-- them off.

-- Births and attacks go into the team's plans (plan, free: see
-- docs/scripting.md), so two squares never fill the same cell.

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
        plan(d, "attack")
        return ATTACK, d
      end
    end
    local k = math.random(4)
    for r = 1, 2 do
      local dirs = RINGS[r]
      for i = 0, 3 do
        local d = dirs[(k + i - 1) % 4 + 1]
        if free(d) then
          plan(d, "birth")
          return REPLICATE, d
        end
      end
    end
    return WAIT -- nothing but teammates around: hold the middle
  end,
}
