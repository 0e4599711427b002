-- want: rules_instructions
return { size = function() while true do end end, turns = function() end, resolve = function() end }
