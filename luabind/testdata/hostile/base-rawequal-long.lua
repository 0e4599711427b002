-- expect: timeout
-- rawequal compares two equal-length strings byte by byte.
local a, b
return { name = "Hostile", run = function()
  a = a or string.rep("q", 262144)
  b = b or string.rep("q", 262144)
  while true do rawequal(a, b) end
end }
