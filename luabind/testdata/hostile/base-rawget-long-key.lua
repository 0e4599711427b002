-- expect: timeout
-- rawget and rawset hash the whole key.
local k = string.rep("k", 1048576)
local t = {}
return { name = "Hostile", run = function()
  while true do rawget(t, k) rawset(t, k, nil) end
end }
