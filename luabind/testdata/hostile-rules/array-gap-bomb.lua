-- want: memory limit exceeded: the rules' Lua heap is over 4 MiB
local keep = {}
return { turns = function()
    for i = 1, 3000 do local t = {} t[1023] = i keep[#keep + 1] = t end
  end, resolve = function() end }
