-- expect: timeout
-- A table constructor around 4,000 values, in a loop: SETLIST stores all
-- of them in one instruction, and is charged for each.
return { name = "Hostile", run = function()
  local big = {}
  for i = 1, 4000 do big[i] = i end
  local function all(...) return ... end
  while true do local t = {all(unpack(big, 1, 4000))} end
end }
