-- want: turns and resolve
return { turns = function() end }
