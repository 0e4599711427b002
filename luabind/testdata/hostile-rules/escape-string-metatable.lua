-- want: rules.lua:2:
return { setup = function() local mt = getmetatable(""); mt.__index.os.exit(1) end, turns = function() end, resolve = function() end }
