-- want: rules.lua:3: turns asked for 70000 calls at once
-- Asks for seventy thousand calls in one batch: more than any board has units.
return { turns = function()
    local calls = {}
    for i = 1, 70000 do calls[i] = {team = 0} end
    return calls
  end, resolve = function() end }
