-- expect: timeout
-- An endless loop inside an __index metamethod is still counted.
return { name = "Hostile", run = function()
  local t = setmetatable({}, {__index = function(t, k) while true do end end})
  return t.anything
end }
