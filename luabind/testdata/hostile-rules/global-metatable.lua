-- want: rules_instructions
-- Makes every global lookup loop, then reads one.
setmetatable(_G, {__index = function() while true do end end})
return { setup = function() return undefined_name end, turns = function() end, resolve = function() end }
