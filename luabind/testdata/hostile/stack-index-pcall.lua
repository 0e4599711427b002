-- expect: timeout
-- Overflowing the C stack through __index again and again under pcall: each
-- caught error is charged for the Go levels it unwinds, before they are
-- unwound, so the loop spends its budget in a few rounds. Uncharged, a call
-- ran 48 of them, each an unwinding of 200 nested main loops.
local t = setmetatable({}, {})
getmetatable(t).__index = function(t, k) return t[k] end
local function route() return t.x end
return { name = "Hostile", run = function()
  while true do pcall(route) end
end }
