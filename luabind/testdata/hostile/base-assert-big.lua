-- expect: timeout
-- assert(false, msg) prefixes the position by copying the whole message.
local s = string.rep("a", 1048576)
return { name = "Hostile", run = function()
  while true do pcall(function() assert(false, s) end) end
end }
