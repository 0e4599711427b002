-- expect: timeout
-- s = s .. s forty times would need a terabyte; every byte built is
-- charged, so the budget runs out near the string limit.
return { name = "Hostile", run = function()
  local s = "x"
  for i = 1, 60 do s = s .. s end
end }
