-- expect: error
return { name = "Hostile", run = function() local s = string.rep("x", 1e10) end }
