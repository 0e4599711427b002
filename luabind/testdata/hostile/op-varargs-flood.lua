-- expect: timeout
-- {...} and f(...) over 4,000 values, in a loop: every value moved by
-- VARARG, CALL and RETURN with B=0 is charged to the budget.
return { name = "Hostile", run = function()
  local big = {}
  for i = 1, 4000 do big[i] = i end
  local function pass(...) return ... end
  local function pack(...) return {...} end
  while true do local t = pack(pass(unpack(big, 1, 4000))) end
end }
