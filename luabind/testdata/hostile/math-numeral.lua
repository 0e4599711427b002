-- expect: timeout
-- A megabyte numeral handed to math functions, which parse it whole in one
-- instruction unless the parse is charged by length.
return { name = "Hostile", run = function()
  local s = ("1"):rep(1000000)
  for i = 1, 300 do math.floor(s) math.max(1, s) math.sin(s) end
end }
