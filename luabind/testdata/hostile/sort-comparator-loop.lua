-- expect: timeout
return { name = "Hostile", run = function()
  table.sort({3, 2, 1}, function(a, b) while true do end end)
end }
