-- expect: error
return { name = "Hostile", run = function() error(setmetatable({}, {__tostring = function() while true do end end})) end }
