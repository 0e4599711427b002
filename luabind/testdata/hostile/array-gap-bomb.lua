-- expect: timeout
-- Each write far past the end of an empty array fills the gap at once;
-- every slot filled is charged, so the budget stops it (gap.go).
return { name = "Hostile", run = function()
  local keep = team_memory.keep or {}
  team_memory.keep = keep
  for i = 1, 3000 do local t = {} t[1023] = i keep[#keep + 1] = t end
end }
