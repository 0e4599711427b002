-- Crowd: grows like the starter, and loops forever once its team has 4
-- squares or more.
return {
  name = "Crowd",
  run = function(self, team, view)
    if stats()[team].squares >= 4 then
      local n = 0
      while n >= 0 do n = n + 1 end -- line 8
    end
    for d = 1, 8 do
      if free(d) and math.random(40) == 1 then
        plan(d, "birth")
        return REPLICATE, d
      end
    end
    return WAIT
  end,
}
