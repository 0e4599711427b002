-- want: rules.lua:2:
return { setup = function(g) g.option("no_such_option") end, turns = function() end, resolve = function() end }
