-- want: rules.lua:2: bad argument #1 to 'finish'
return { setup = function(g) g.finish({}, print) end, turns = function() end, resolve = function() end }
