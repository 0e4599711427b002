-- expect: timeout
-- tonumber reads the whole string: a 1 MiB numeral, over and over.
local s = string.rep("1", 1048576)
return { name = "Hostile", run = function()
  while true do tonumber(s) tonumber(s, 16) end
end }
