-- expect: error
-- Keeps a growing pile of strings in team memory until the team's heap
-- crosses its bound and its Lua state is reset.
return { name = "Hostile", run = function()
  local pile = team_memory.pile or {}
  team_memory.pile = pile
  local s = string.rep("m", 4000)
  for i = 1, 900 do pile[#pile + 1] = s .. i end
end }
