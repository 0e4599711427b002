-- want: budget
return { turns = function() return {{team = 0, budget = -5}} end, resolve = function() end }
