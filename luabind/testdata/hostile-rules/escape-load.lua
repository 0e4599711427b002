-- want: rules.lua:2:
return { setup = function() load(string.dump(print))() end, turns = function() end, resolve = function() end }
