-- want: more than 16 × limits.rules_instructions
-- turns never returns nil, and works hard each time.
return { turns = function(g)
    local x = 0
    for i = 1, 150000 do x = x + i end
    return {{team = 0}}
  end, resolve = function() end }
