-- expect: timeout
-- `#` in a loop on the two tables whose border costs the most to find:
-- an array part ending in a thousand nils (walked back slot by slot) and
-- a list whose border lies at 2^52 in the hash part (found by doubling,
-- then bisecting). Each `#` is one instruction; its walk is charged.
return { name = "Hostile", run = function()
  local holes = {}
  for i = 1, 1000 do holes[i] = i end
  for i = 2, 1000 do holes[i] = nil end
  local far = {}
  for i = 1, 1023 do far[i] = i end
  for e = 10, 52 do far[2 ^ e] = e end
  local n = 0
  while true do
    n = n + #holes + #far
  end
end }
