-- expect: timeout
return { name = "Hostile", run = function()
  local s = string.rep("p", 200)
  while true do print(s) end
end }
