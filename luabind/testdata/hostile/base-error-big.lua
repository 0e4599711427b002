-- expect: timeout
-- error(msg) prefixes the position by copying the whole message.
local s = string.rep("e", 1048576)
return { name = "Hostile", run = function()
  while true do pcall(function() error(s) end) end
end }
