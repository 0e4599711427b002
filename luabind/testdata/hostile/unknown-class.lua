-- expect: error
return { name = "Hostile", run = function() return REPLICATE, N, "no-such-class" end }
