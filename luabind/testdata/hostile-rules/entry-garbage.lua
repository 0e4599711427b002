-- want: entry
return { entry = 42, turns = function() end, resolve = function() end }
