-- expect: error
-- shown: memory
-- gmatch iterators over distinct 100 KB subjects, hoarded: the iterator
-- holds its subject in an upvalue, so the census sees every byte.
local n = 0
return { name = "Hostile", run = function()
  for i = 1, 4 do
    n = n + 1
    local s = string.rep(string.char(65 + n % 26), 100000) .. n
    team_memory[#team_memory + 1] = string.gmatch(s, ".")
  end
end }
