-- expect: timeout
-- Overflowing the C stack through table.sort's comparator again and again
-- under xpcall: charged as stack-index-pcall.lua is.
local function cmp(x, y) table.sort({2, 1}, cmp) return x < y end
local function route() table.sort({2, 1}, cmp) end
local function handler(e) return e end
return { name = "Hostile", run = function()
  while true do xpcall(route, handler) end
end }
