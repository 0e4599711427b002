-- expect: timeout
-- math.max and math.min read every argument.
local t = {}
for i = 1, 1000 do t[i] = i end
return { name = "Hostile", run = function()
  while true do math.max(unpack(t)) math.min(unpack(t)) end
end }
