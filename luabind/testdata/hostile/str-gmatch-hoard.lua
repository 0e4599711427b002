-- expect: error
-- shown: memory
-- gmatch iterators over distinct 1 MB subjects, hoarded: the iterator
-- holds its subject in an upvalue, so the census sees every megabyte.
local n = 0
return { name = "Hostile", run = function()
  for i = 1, 4 do
    n = n + 1
    local s = string.rep(string.char(65 + n % 26), 1000000) .. n
    team_memory[#team_memory + 1] = string.gmatch(s, ".")
  end
end }
