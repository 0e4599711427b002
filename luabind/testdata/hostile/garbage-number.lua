-- expect: error
-- mod: ignored (as a rule mod's player its answer is plain data, which the rules ignore)
-- A direction of 1e308.
return { name = "Hostile", run = function()
  return ATTACK, 1e308
end }
