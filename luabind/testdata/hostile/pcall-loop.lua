-- expect: timeout
-- pcall cannot swallow the budget: every instruction after it is spent raises again.
return { name = "Hostile", run = function()
  while true do pcall(function() while true do end end) end
end }
