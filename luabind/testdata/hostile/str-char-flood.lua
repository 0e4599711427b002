-- expect: timeout
-- string.char over thousands of arguments, again and again: charged per
-- argument.
local codes = {}
for i = 1, 3999 do codes[i] = 65 + i % 26 end
return { name = "Hostile", run = function()
  local t = {}
  while true do t[#t % 8 + 1] = string.char(unpack(codes)) end
end }
