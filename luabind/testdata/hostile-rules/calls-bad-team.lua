-- want: team must be a team number
return { turns = function() return {{team = 0/0}} end, resolve = function() end }
