-- expect: timeout
-- Sorting strings that share a 16 KiB prefix: every comparison reads the
-- prefix. Each comparison is charged by the bytes it compares. The strings
-- are built over the first calls (the top level has one call's budget).
local s = string.rep("a", 16384)
local t = {}
return { name = "Hostile", run = function()
  while #t < 64 do local i = #t + 1 t[i] = s .. (i * 7919 % 64) end
  while true do table.sort(t) end
end }
