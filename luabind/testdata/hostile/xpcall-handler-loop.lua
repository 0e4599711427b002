-- expect: timeout
return { name = "Hostile", run = function()
  xpcall(function() while true do end end, function() while true do end end)
  while true do end
end }
