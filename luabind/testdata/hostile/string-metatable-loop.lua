-- expect: timeout
-- The string metatable is the team's own: looping through it hurts no one else.
return { name = "Hostile", run = function()
  local mt = getmetatable("")
  if mt then mt.__index = function() while true do end end end
  return ("x"):upper()
end }
