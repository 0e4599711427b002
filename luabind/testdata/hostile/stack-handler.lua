-- expect: timeout
-- An xpcall whose handler overflows the C stack too, on top of the first
-- overflow: the handler has Lua 5.1's 25 levels past the limit, each call
-- of it after a failed one runs a level deeper, and xpcall gives "error in
-- error handling"; in a loop, the budget ends it.
local t = setmetatable({}, {})
getmetatable(t).__index = function(t, k) return t[k] end
local function route() return t.x end
return { name = "Hostile", run = function()
  while true do xpcall(route, route) end
end }
