-- expect: timeout
-- select(n, ...) moves every value after the n-th to its caller.
local t = {}
for i = 1, 1000 do t[i] = i end
return { name = "Hostile", run = function()
  while true do select(2, unpack(t)) end
end }
