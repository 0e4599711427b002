-- expect: timeout
-- %q walks its string a byte at a time to escape it: charged for the walk
-- as well as for the bytes it makes.
local s = string.rep("a", 800)
return { name = "Hostile", run = function()
  while true do local _ = string.format("%q", s) end
end }
