-- expect: timeout
return { name = "Hostile", run = function()
  string.gsub("abc", "%w", function(c) while true do end end)
end }
