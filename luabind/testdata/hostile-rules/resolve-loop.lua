-- want: rules_instructions
-- Asks every team once a round, then loops while resolving.
local asked = 0
return { turns = function(g)
    if asked == g.round() then return nil end
    asked = g.round()
    return {{team = 0}, {team = 1}}
  end,
  resolve = function() local n = 0; repeat n = n + 1 until false end }
