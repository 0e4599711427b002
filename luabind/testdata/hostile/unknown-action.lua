-- expect: error
return { name = "Hostile", run = function() return "teleport", N end }
