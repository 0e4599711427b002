-- expect: error
-- shown: hostile.lua:5: C stack overflow
-- A generic for whose Lua iterator runs the same loop: gopher-lua calls a
-- Lua iterator in a main loop of its own, a Go level each time.
local function it() for x in it do end end
return { name = "Hostile", run = function()
  for x in it do end
end }
