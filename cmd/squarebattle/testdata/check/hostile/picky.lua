-- Picky: plays like a cautious starter against the Explorer, and loops
-- forever against any other player (it reads the teams' names).
return {
  name = "Picky",
  run = function(self, team, view)
    for t, s in pairs(stats()) do
      if t ~= team and s.player ~= "Explorer" then
        while true do end -- line 8
      end
    end
    for d = 1, 8 do
      if view[d] >= 0 and view[d] ~= team then
        plan(d, "attack")
        return ATTACK, d
      end
    end
    return WAIT
  end,
}
