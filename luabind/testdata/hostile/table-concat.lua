-- expect: error
return { name = "Hostile", run = function()
  local t = {}
  local s = string.rep("y", 4000)
  for i = 1, 600 do t[i] = s end
  local big = table.concat(t, s)
end }
