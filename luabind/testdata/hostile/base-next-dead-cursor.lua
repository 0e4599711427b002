-- expect: timeout
-- A traversal that stands on a deleted key cannot compact the table (the
-- walk must resume after that key), so each next walks the dead keys that
-- follow: charged per slot, refused when the budget left does not pay.
local t, n, d, first = {}, 0, 0, nil
return { name = "Hostile", run = function()
  local tt, k = t, n
  if k < 6000 then
    for i = 1, 1500 do k = k + 1 tt[-k] = true end
    n = k
    return
  end
  first = first or next(t)
  if d < n then
    k = d
    for i = 1, 1500 do k = k + 1 tt[-k] = nil end
    d = k
    return
  end
  while true do next(t, first) end
end }
