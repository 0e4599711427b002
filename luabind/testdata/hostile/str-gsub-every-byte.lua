-- expect: timeout
-- A match at every byte: gsub sets its matcher up 800 times a call.
local s = string.rep("a", 800)
return { name = "Hostile", run = function()
  while true do local _ = string.gsub(s, "a", "%0") end
end }
