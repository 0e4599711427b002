-- want: columns
return { columns = {1, {}, print}, turns = function() end, resolve = function() end }
