-- want: rules.lua:2:
return { setup = function() os.execute("true") end, turns = function() end, resolve = function() end }
