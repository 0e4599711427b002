-- want: rules.lua:2:
return { setup = function() io.open("/etc/passwd") end, turns = function() end, resolve = function() end }
