-- expect: error
-- Wiping the library out of the script's own environment.
math = nil
return { name = "Hostile", run = function()
  return MOVE, math.random(8)
end }
