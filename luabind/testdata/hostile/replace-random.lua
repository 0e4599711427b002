-- expect: timeout
-- Replacing math.random with a trap only traps the team itself.
math.random = function() while true do end end
return { name = "Hostile", run = function()
  return MOVE, math.random(8)
end }
