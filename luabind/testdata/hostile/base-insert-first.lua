-- expect: timeout
-- table.insert(t, 1, v) moves every entry up by one; a position far below
-- 1 moves them as many times (Lua 5.1 allows it).
local t = {}
for i = 1, 2000 do t[i] = i end
return { name = "Hostile", run = function()
  pcall(table.insert, {1}, -1e15, 0)
  while true do table.insert(t, 1, 0) t[#t] = nil end
end }
