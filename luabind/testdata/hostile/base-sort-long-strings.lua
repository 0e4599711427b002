-- expect: timeout
-- Sorting strings that share a 64 KiB prefix: every comparison reads the
-- prefix. Each comparison is charged by the bytes it compares.
local s = string.rep("a", 65536)
local t = {}
for i = 1, 64 do t[i] = s .. (i * 7919 % 64) end
return { name = "Hostile", run = function()
  while true do table.sort(t) end
end }
