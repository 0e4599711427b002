-- want: view
-- Shows a player a table that holds itself.
return { turns = function() local v = {}; v.me = v; return {{team = 0, view = v}} end, resolve = function() end }
