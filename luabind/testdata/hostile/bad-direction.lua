-- expect: error
return { name = "Hostile", run = function() return MOVE, 99 end }
