-- want: view
-- Shows a player a function.
return { turns = function() return {{team = 0, view = {f = print}}} end, resolve = function() end }
