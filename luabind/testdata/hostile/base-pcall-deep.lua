-- expect: timeout
-- gopher-lua's pcall formatted a stack traceback of every frame for each
-- error it caught, then threw it away: at a depth of 190, 235 µs for one
-- instruction. The project's pcall asks for none.
local function deep(d)
  if d == 0 then
    while true do pcall(error, "x") end
  end
  return 1 + deep(d - 1)
end
return { name = "Hostile", run = function()
  deep(180)
end }
