-- expect: timeout
-- rawequal compares two equal-length strings byte by byte.
local a, b = string.rep("q", 1048576), string.rep("q", 1048576)
return { name = "Hostile", run = function()
  while true do rawequal(a, b) end
end }
