-- Clumsy: a player with every kind of mistake check reports. It has a
-- child, then strikes the cell the child sits in (an own-team kill); it
-- indexes nil every fifth round and runs forever every seventh (two kinds
-- of problem); and it misspells ATTACK on a path no battle takes.
local function far(v)
  return v.row
end

return {
  name = "Clumsy",
  run = function(self, team, view)
    if self.child then
      return WAIT
    end
    if not self.had_child then
      self.had_child = true
      return REPLICATE, E, nil, { child = true }
    end
    if round() % 5 == 0 then
      return MOVE, far(nil)
    end
    if round() % 7 == 0 then
      while true do end
    end
    if round() < 0 then
      return ATACK, E
    end
    return ATTACK, E
  end,
}
