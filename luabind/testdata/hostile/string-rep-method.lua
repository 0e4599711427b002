-- expect: error
-- The string metatable reaches the same wrapped library.
return { name = "Hostile", run = function() local s = ("x"):rep(1e6):rep(1e6) end }
