-- expect: timeout
-- string.char over thousands of arguments, again and again: charged per
-- argument.
local codes = { string.byte(string.rep("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 154), 1, 3999) }
return { name = "Hostile", run = function()
  local t = {}
  while true do t[#t % 8 + 1] = string.char(unpack(codes)) end
end }
