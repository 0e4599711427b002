-- expect: timeout
-- print copied its whole argument before cutting the line at 240 bytes,
-- and was not charged at all.
local s = string.rep("p", 1048576)
return { name = "Hostile", run = function()
  while true do print(s, s, s) end
end }
