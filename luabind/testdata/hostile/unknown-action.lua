-- expect: error
-- mod: ignored (as a rule mod's player its answer is plain data, which the rules ignore)
return { name = "Hostile", run = function() return "teleport", N end }
