-- expect: error
-- NaN as a direction.
return { name = "Hostile", run = function()
  return MOVE, 0/0
end }
