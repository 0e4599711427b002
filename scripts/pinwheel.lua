-- Pinwheel: every square spins. Its heading turns one eighth of a circle
-- clockwise each round and it steps that way, so it runs around a small
-- ring; once per lap it takes one extra step with the wind (self.wind), so
-- the ring rolls slowly across the arena like a paper pinwheel blown along
-- a street. Enemies next to it are struck at once, the first one found
-- turning clockwise from the heading. When its ring is blocked it keeps the
-- blade turning by attacking the empty cell ahead. Now and then a square
-- drops a new pinwheel in front of itself; the child rolls with a wind a
-- quarter turn further on, so the team fans out.

-- Moves, births and swings go into the team's plans (plan, planned, free:
-- see docs/scripting.md), so no pinwheel rolls into a teammate's path or
-- swings at it.

local LAP = 9        -- rounds per lap: eight turning steps and one with the wind
local REST = 80      -- rounds between two births, on top of the 100 spent sitting
local CROWD = 3      -- no births with this many teammates around

---@type Player
return {
  name = "Pinwheel",
  victory = "Round and round and round we go... and we never fell down!",
  defeat = "The wind has dropped. We have stopped spinning.",

  run = function(self, team, view, row, col)
    local h = self.h or math.random(8)
    self.wind = self.wind or math.random(8)
    self.t = (self.t or 0) + 1
    self.spawn = self.spawn or round() + 20 + math.random(0, 30)

    local d = h
    if self.t % LAP == 0 then
      d = self.wind -- the extra step that makes the ring roll
    else
      self.h = turn(h)
    end

    for i = 0, 7 do
      local e = turn(h, i)
      local v = view[e]
      if v >= 0 and v ~= team then
        plan(e, "attack")
        return ATTACK, e
      end
    end

    if round() >= self.spawn and free(d) then
      local mates = 0
      for i = 1, 8 do
        if view[i] == team then
          mates = mates + 1
        end
      end
      if mates < CROWD then
        self.spawn = round() + 100 + REST + math.random(0, 60)
        plan(d, "birth")
        return REPLICATE, d, nil, { h = opposite(d), wind = turn(self.wind, 2), spawn = self.spawn }
      end
    end

    if free(d) then
      plan(d, "move")
      return MOVE, d
    end

    -- Blocked: swing the blade at the empty cell ahead instead.
    -- Never where a teammate moves or gives birth; sharing a swing is fine.
    local p = planned(d)
    if view[d] == EMPTY and (p == nil or p == "attack") then
      plan(d, "attack")
      return ATTACK, d
    end
    return WAIT
  end,
}
