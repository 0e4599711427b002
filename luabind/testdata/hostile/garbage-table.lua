-- expect: error
-- Tables where the action and direction belong.
return { name = "Hostile", run = function()
  return {}, {}
end }
