-- want: size
return { size = function() return {} end, turns = function() end, resolve = function() end }
