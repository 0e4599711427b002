-- expect: timeout
-- A function returning 4,000 values, passed along through calls: RETURN
-- and CALL with B=0 move them all in one instruction each.
return { name = "Hostile", run = function()
  local big = {}
  for i = 1, 4000 do big[i] = i end
  local function many() return unpack(big, 1, 4000) end
  local function again(...) return ... end
  while true do again(again(again(many()))) end
end }
