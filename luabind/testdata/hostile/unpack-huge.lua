-- expect: error
return { name = "Hostile", run = function() return unpack({}, 1, 1e8) end }
