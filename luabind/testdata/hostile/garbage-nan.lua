-- expect: error
-- mod: ignored (as a rule mod's player its answer is plain data, which the rules ignore)
-- NaN as a direction.
return { name = "Hostile", run = function()
  return MOVE, 0/0
end }
