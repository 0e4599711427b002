-- expect: error
-- A direction of 1e308.
return { name = "Hostile", run = function()
  return ATTACK, 1e308
end }
