-- expect: timeout
-- table.remove(t, 1) moves every entry of a long list down by one.
local t = {}
for i = 1, 2000 do t[i] = i end
return { name = "Hostile", run = function()
  while true do table.remove(t, 1) t[#t + 1] = 0 end
end }
