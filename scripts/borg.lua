-- Borg: the cheater. Resistance is futile.
--
-- A Borg drone drifts around, attacks any enemy next to it and every couple
-- of hundred rounds replicates into a class picked at random from every
-- script in the scripts folder (classes()), its own included. So a Borg
-- team ends up as a patchwork of everybody else's players, and you never
-- know whom you will meet, perhaps even yourself. A real tournament would
-- throw it out; as a sparring partner it is perfect.

-- Every move, birth and attack goes into the team's plans (plan, free:
-- see docs/scripting.md), which the drones' assimilated children read too.

-- The list of classes does not change during a battle: ask once per team.
local catalog

local GAP = 120 -- rounds between assimilations, after the 100 spent sitting

---@type Player
return {
  name = "Borg",
  victory = "We are the Borg. Your squares have been added to our own.",
  defeat = "Unimatrix zero... offline.",

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

    self.next = self.next or round() + 40 + math.random(0, 60)
    if round() >= self.next then
      for i = 0, 7 do
        local d = turn(start, i)
        if free(d) then
          catalog = catalog or classes()
          local class = catalog[math.random(#catalog)]
          self.next = round() + 100 + GAP + math.random(0, 80)
          local data = {}
          if class == "borg" then
            data.next = self.next
          end
          plan(d, "birth")
          return REPLICATE, d, class, data
        end
      end
    end

    -- Drift: mostly straight on, sometimes a new heading.
    local d = self.dir
    if d == nil or math.random(5) == 1 then
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
