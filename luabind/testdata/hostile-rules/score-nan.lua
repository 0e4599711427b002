-- want: rules.lua:2: bad argument #3 to 'score'
return { columns = {"points"}, setup = function(g) g.score(0, "points", 0/0) end, turns = function() end, resolve = function() end }
