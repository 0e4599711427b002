-- expect: timeout
-- table.concat of 100,000 empty strings: only the output bytes were
-- charged (none), and the call took 40 to 68 s. Every entry read is
-- charged now, before the first is read.
local t, n = {}, 0
return { name = "Hostile", run = function()
  if n < 9000 then
    local tt, k = t, n
    for i = 1, 1800 do k = k + 1 tt[k] = "" end
    n = k
    return
  end
  while true do table.concat(t) end
end }
