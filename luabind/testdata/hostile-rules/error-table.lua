-- want: rules.lua:3:
-- Raises a table whose __tostring loops.
return { setup = function() error(setmetatable({}, {__tostring = function() while true do end end})) end,
  turns = function() end, resolve = function() end }
