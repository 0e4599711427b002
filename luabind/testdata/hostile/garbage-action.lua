-- expect: error
-- mod: ignored (as a rule mod's player its answer is plain data, which the rules ignore)
-- A table with metamethods as the action: read raw, never through __index/__eq.
return { name = "Hostile", run = function()
  return setmetatable({}, {__index = function() while true do end end, __eq = function() return true end}), 2
end }
