-- want: rules.lua:2:
return { setup = function() local env = getfenv(0); env.debug.getregistry() end, turns = function() end, resolve = function() end }
