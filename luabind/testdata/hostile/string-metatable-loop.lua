-- expect: error
-- shown: the string metatable is protected
-- The string metatable is out of reach: getmetatable("") gives false, so
-- there is no __index to replace with an endless loop, and methods on
-- strings stay the pristine ones.
return { name = "Hostile", run = function()
  local mt = getmetatable("")
  if mt then mt.__index = function() while true do end end end
  if mt == false and ("x"):upper() == "X" then error("the string metatable is protected") end
  return ("x"):upper()
end }
