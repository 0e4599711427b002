-- want: rules.lua:11: 2000 answers, last 1
-- A list of 2000 calls, past gopher-lua's array part: every call must be
-- made and answered. The rules then stop the battle to report the count.
local asked = 0
return { turns = function(g)
    if asked == g.round() then return nil end
    asked = g.round()
    local calls = {}
    for i = 1, 2000 do calls[i] = {team = i % 2, unit = i} end
    return calls
  end, resolve = function(g, calls, answers) error(#answers .. " answers, last " .. tostring(answers[2000])) end }
