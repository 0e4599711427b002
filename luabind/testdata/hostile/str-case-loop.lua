-- expect: timeout
-- upper and reverse walk their string a byte at a time.
local s = string.rep("a", 800)
return { name = "Hostile", run = function()
  while true do local _ = s:upper():reverse() end
end }
