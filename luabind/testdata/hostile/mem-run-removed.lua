-- expect: error
-- shown: memory limit exceeded
-- run removes itself from the table it was returned in: the engine keeps
-- calling its cached pointer, the only way left to its upvalues.
local keep = {}
local t
t = { name = "Hostile", run = function()
  t.run = nil
  for i = 1, 4 do keep[#keep + 1] = string.rep("r", 100000) .. i end
end }
return t
