-- Wanderer: squares that stroll about at random, looking for trouble.
--
-- Each square keeps walking the way it was going and now and then picks a
-- new way at random. Any enemy next to it gets attacked. Every EVERY rounds
-- the whole team replicates at once: since all Wanderers are born together
-- and sit still together, they stay in step, and the arena suddenly fills
-- with new Wanderers (great fun to watch, unless you are the one being
-- wandered over). A child sets off in the direction it was born in.

-- Moves, births and attacks go into the team's plans (plan, free: see
-- docs/scripting.md), so two Wanderers never stroll into the same cell.

-- Rounds between two team-wide births. It must be more than the 100 rounds
-- parent and child sit still, or the children would miss the next one.
local EVERY = 150

---@type Player
return {
  name = "Wanderer",
  victory = "Not all who wander are lost. Some of them win.",
  defeat = "We wandered a little too far this time.",

  run = function(self, team, view, row, col)
    local start = math.random(8)
    for i = 0, 7 do
      local d = turn(start, i)
      local v = view[d]
      if v >= 0 and v ~= team then
        plan(d, "attack")
        return ATTACK, d
      end
    end

    if round() % EVERY == 0 then
      for i = 0, 7 do
        local d = turn(start, i)
        if free(d) then
          plan(d, "birth")
          return REPLICATE, d, nil, { dir = d }
        end
      end
    end

    local d = self.dir
    if d == nil or math.random(6) == 1 then
      d = start
    end
    for i = 0, 7 do
      local e = turn(d, i)
      if free(e) then
        self.dir = e
        plan(e, "move")
        return MOVE, e
      end
    end
    return WAIT
  end,
}
