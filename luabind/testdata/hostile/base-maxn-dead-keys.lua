-- expect: timeout
-- table.maxn walks every key, dead ones included.
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
  while true do table.maxn(t) end
end }
