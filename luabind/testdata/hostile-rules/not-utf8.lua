-- want: rules.lua:2:
return { setup = function() error("bad \255\254 bytes") end, turns = function() end, resolve = function() end }
