-- expect: error
-- Coroutines are left out: they would escape the instruction budget.
return { name = "Hostile", run = function()
  local co = coroutine.create(function() while true do end end)
  coroutine.resume(co)
end }
