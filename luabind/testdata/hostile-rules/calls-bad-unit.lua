-- want: rules.lua:4: call 1: unit must be a whole number
-- Asks for a unit far beyond any board.
local asked = 0
return { turns = function(g)
    if asked == g.round() then return nil end
    asked = g.round()
    return {{team = 0, unit = 1e12}}
  end, resolve = function() end }
