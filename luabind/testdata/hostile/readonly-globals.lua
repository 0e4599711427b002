-- expect: error
-- Overwrites the API's constants and functions, and the shared facts it is
-- handed, then uses them: none of it may reach another team, or even the
-- team's other classes.
return { name = "Hostile", run = function(self, team, view)
  EMPTY, MOVE, SE, ATTACK = 7, "attack", 99, "move"
  round, board_size = function() return -1 end, nil
  local s = stats()
  s[1] = nil
  if s[2] then s[2].squares = 1e9 end
  view[1], view[9] = "garbage", {}
  _G.team_memory = 42
  math.random = nil
  return MOVE, SE
end }
