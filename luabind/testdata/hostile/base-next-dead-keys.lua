-- expect: timeout
-- next over a table whose keys were all deleted. gopher-lua never forgets
-- a deleted key, and its next walked every one of them in one instruction
-- (300,000 dead keys: seconds per call). The project's next charges each
-- slot it walks, stops where the budget does, and compacts the table.
local t, n, d = {}, 0, 0
return { name = "Hostile", run = function()
  local tt, k = t, n
  if k < 6000 then
    for i = 1, 1500 do k = k + 1 tt[-k] = true end
    n = k
    return
  end
  if d < n then
    k = d
    for i = 1, 1500 do k = k + 1 tt[-k] = nil end
    d = k
    return
  end
  while true do next(t) end
end }
