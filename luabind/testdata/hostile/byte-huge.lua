-- expect: error
return { name = "Hostile", run = function() return string.byte(string.rep("z", 100000), 1, -1) end }
