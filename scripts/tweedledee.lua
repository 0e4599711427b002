-- TweedleDee: the careful twin. It never moves. It looks around; if an enemy
-- is next to it, it attacks; if the coast is clear, it replicates, but not
-- into another TweedleDee: every child is a TweedleDum (tweedledum.lua), a
-- class with no name and completely different code. Dee picks the cell for
-- each new Dum a quarter turn further round than the last one, raises two
-- of them and then just stands guard.

-- Births and attacks go into the team's plans (plan, free: see
-- docs/scripting.md), which the Dums read too.

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
        plan(d, "attack")
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
      if free(e) then
        self.twin = turn(e, 2)
        self.kids = (self.kids or 0) + 1
        plan(e, "birth")
        return REPLICATE, e, "tweedledum", { dir = turn(e, 2) }
      end
    end
    return WAIT
  end,
}
