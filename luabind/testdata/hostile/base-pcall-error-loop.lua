-- expect: timeout
-- A caught error of a few bytes, raised by error itself, as fast as a loop can.
return { name = "Hostile", run = function()
  while true do pcall(error, "x") end
end }
