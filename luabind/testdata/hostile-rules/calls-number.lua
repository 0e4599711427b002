-- want: turns
-- turns answers a number instead of a list of calls.
return { turns = function() return 42 end, resolve = function() end }
