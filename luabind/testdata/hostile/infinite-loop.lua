-- expect: timeout
return { name = "Hostile", run = function() while true do end end }
