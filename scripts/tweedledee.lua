-- TweedleDee: the careful twin. It never moves. It looks around; if an enemy
-- is next to it, it attacks; if the coast is clear, it replicates, but not
-- into another TweedleDee: every child is a TweedleDum (tweedledum.lua), a
-- class with no name and completely different code. Dee picks the cell for
-- each new Dum a quarter turn further round than the last one, raises two
-- of them and then just stands guard.

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

local function turn(d, eighths)
  return (d + eighths - 1) % 8 + 1
end

local KIDS = 2 -- Dums raised by one Dee; after that it just stands guard

---@type Player
return {
  name = "TweedleDee",
  victory = "Contrariwise: if we won, we won; and as we did, we do. That's logic.",
  defeat = "Tweedledum and Tweedledee agreed to have a battle... and lost it.",

  run = function(self, team, view, row, col)
    for d = 1, 8 do
      local v = view[d]
      if v >= 0 and v ~= team then
        plan(row, col, d, "attack")
        return ATTACK, d
      end
    end

    -- Nobody about: time for another brother, if Dee has not raised
    -- enough of them already.
    if (self.kids or 0) >= KIDS then
      return WAIT
    end
    local d = self.twin or N
    for i = 0, 7 do
      local e = turn(d, i)
      if free(view, row, col, e) then
        self.twin = turn(e, 2)
        self.kids = (self.kids or 0) + 1
        plan(row, col, e, "birth")
        return REPLICATE, e, "tweedledum", { dir = turn(e, 2) }
      end
    end
    return WAIT
  end,
}
