-- want: rules.lua:2:
return { setup = function(g) g.constant(print) end, turns = function() end, resolve = function() end }
