-- expect: error
return { name = "Hostile", run = function() return string.format("%099999999d", 1) end }
