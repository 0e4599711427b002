-- want: rules_instructions
-- An endless loop in setup.
return { setup = function() while true do end end, turns = function() end, resolve = function() end }
