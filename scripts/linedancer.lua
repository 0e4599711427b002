-- Line Dancer: a double row of squares that grows sideways and keeps a wall
-- of attacks on both of its long sides.
--
-- The first square clones itself to the north, so the team is two rows high.
-- From then on every square knows which row it belongs to (self.row) and on
-- which side of the founder it was born (self.side). A square whose outer
-- neighbour along its row is empty is the end of the line: it replicates
-- into that cell, and the child carries the same row and side. Everybody
-- else strikes outward every round: the upper row attacks N, the lower row
-- attacks S, so whatever steps next to the line is gone before it can act.
-- If a square of the line dies, its inner neighbour sees the gap and grows
-- the line back.

-- Every birth and attack goes into the team's plans (plan, planned, free:
-- see docs/scripting.md). Squares of one team run one after another, so a
-- square can see what its teammates already decided this round.

-- Where to look for enemies first: the outer side of the row, then along
-- the row, then the rest.
local LOOK = {
  upper = { N, NW, NE, W, E, SW, SE, S },
  lower = { S, SW, SE, W, E, NW, NE, N },
}

---@type Player
return {
  name = "Line Dancer",
  victory = "Everybody in line... and kick! The dance floor is ours.",
  defeat = "Somebody cut in, and the music stopped.",

  run = function(self, team, view, row, col)
    local order = LOOK[self.row or "lower"]
    for i = 1, 8 do
      local d = order[i]
      local v = view[d]
      if v >= 0 and v ~= team then
        plan(d, "attack")
        return ATTACK, d
      end
    end

    if self.row == nil then
      -- A founder: the starting square, or a square that some other class
      -- handed over to the Line Dancer. Make the second row first.
      if free(N) then
        self.row, self.side = "lower", "both"
        plan(N, "birth")
        return REPLICATE, N, nil, { row = "upper", side = "both" }
      elseif free(S) then
        self.row, self.side = "upper", "both"
        plan(S, "birth")
        return REPLICATE, S, nil, { row = "lower", side = "both" }
      end
      return WAIT
    end

    -- The ends of the line grow it outward.
    local side = self.side
    if (side == "left" or side == "both") and free(W) then
      plan(W, "birth")
      return REPLICATE, W, nil, { row = self.row, side = "left" }
    end
    if (side == "right" or side == "both") and free(E) then
      plan(E, "birth")
      return REPLICATE, E, nil, { row = self.row, side = "right" }
    end

    -- Everybody else kicks outward, unless a teammate stands or steps there.
    local out = self.row == "upper" and N or S
    local p = planned(out)
    if view[out] ~= team and (p == nil or p == "attack") then
      plan(out, "attack")
      return ATTACK, out
    end
    return WAIT
  end,
}
