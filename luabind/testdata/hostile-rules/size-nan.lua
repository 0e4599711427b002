-- want: size
-- The size hook answers NaN.
return { size = function() return 0/0 end, turns = function() end, resolve = function() end }
