-- want: budget must be from 1 to 1e9
return { turns = function() return {{team = 0, budget = 0/0}} end, resolve = function() end }
