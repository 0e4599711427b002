-- want: the winner must be a team from 0 to 1
return { setup = function(g) g.finish(7) end, turns = function() end, resolve = function() end }
