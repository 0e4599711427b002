-- expect: timeout
-- xpcall with a handler on every caught error.
local function h(m) return m end
return { name = "Hostile", run = function()
  while true do xpcall(error, h) end
end }
