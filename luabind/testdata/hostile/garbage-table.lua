-- expect: error
-- mod: ignored (as a rule mod's player its answer is plain data, which the rules ignore)
-- Tables where the action and direction belong.
return { name = "Hostile", run = function()
  return {}, {}
end }
