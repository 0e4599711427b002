-- expect: error
-- s = s .. s forty times would need a terabyte.
return { name = "Hostile", run = function()
  local s = "x"
  for i = 1, 60 do s = s .. s end
end }
