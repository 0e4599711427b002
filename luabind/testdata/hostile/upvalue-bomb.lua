-- expect: error
-- shown: memory limit exceeded
-- Keeps big strings in a local of the file, reachable only through the
-- returned table's functions, never from a global.
local keep = {}
return { name = "Hostile", run = function()
  for i = 1, 4 do keep[#keep + 1] = string.rep("x", 100000) .. i end
end }
