-- expect: timeout
-- A caught error whose value is a table: no message to build.
local e = {}
return { name = "Hostile", run = function()
  while true do pcall(error, e) end
end }
