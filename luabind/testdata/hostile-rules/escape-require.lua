-- want: rules.lua:2:
return { setup = function() require("os").exit(1) end, turns = function() end, resolve = function() end }
