-- want: rules_instructions
return { turns = function() while true do end end, resolve = function() end }
