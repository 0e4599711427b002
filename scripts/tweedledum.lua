-- TweedleDum: the restless twin. There is no name in the table below, so
-- TweedleDum cannot start a battle; it only exists because TweedleDee
-- replicates into it.
--
-- A Dum walks round and round a little square (two steps each way, turning
-- right at every corner), biting any enemy that comes next to it and
-- otherwise never looking at anything. When a corner is blocked for too
-- long it simply turns early. After LAPS laps it gets tired of walking:
-- as soon as it finds itself with no teammate around, it settles down and
-- becomes a TweedleDee (become), which then raises Dums of its own.

-- Moves and attacks go into the team's plans (plan, free: see
-- docs/scripting.md), the same plans its TweedleDee reads.

local RIGHT = { [N] = E, [E] = S, [S] = W, [W] = N }
local SIDE = 2 -- steps along each side of the square
local LAPS = 5 -- laps walked before settling down as a TweedleDee
local PATIENCE = 2 -- blocked rounds before turning early

---@type Player
return {
  -- no name: not a starting player

  run = function(self, team, view, row, col)
    for d = 1, 8 do
      local v = view[d]
      if v >= 0 and v ~= team then
        plan(d, "attack")
        return ATTACK, d
      end
    end

    local d = RIGHT[self.dir] and self.dir or E
    self.steps = self.steps or 0
    self.corners = self.corners or 0
    if self.corners >= 4 * LAPS then
      -- Tired of walking. Settle down, but only somewhere quiet: a Dee
      -- among its brothers has no room to raise Dums of its own.
      local alone = true
      for i = 1, 8 do
        if view[i] == team then
          alone = false
        end
      end
      if alone then
        become("tweedledee")
        return WAIT
      end
    end

    if free(d) then
      plan(d, "move")
      self.steps, self.blocked = self.steps + 1, 0
      if self.steps >= SIDE then
        self.dir, self.steps, self.corners = RIGHT[d], 0, self.corners + 1
      else
        self.dir = d
      end
      return MOVE, d
    end

    self.blocked = (self.blocked or 0) + 1
    if self.blocked > PATIENCE then
      self.dir, self.steps, self.blocked, self.corners = RIGHT[d], 0, 0, self.corners + 1
    end
    return WAIT
  end,
}
