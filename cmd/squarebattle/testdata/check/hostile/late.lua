-- Late: a quiet player that strikes any enemy next to it, and fails in
-- the late rounds of a battle, past any 300-round trial.
return {
  name = "Late",
  run = function(self, team, view)
    if round() > 1000 then
      local plan = self.plans.late -- line 7: self.plans is nil
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
