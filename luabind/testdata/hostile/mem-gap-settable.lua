-- expect: timeout
-- shown: instruction budget exceeded
-- A computed key far past the end of each new table's array part.
-- Each gap is charged as the values it stores before it is filled: the
-- budget runs out after ~130 tables (2 MiB) a call, and the census counts
-- what piles up over the calls.
return { name = "Hostile", run = function()
  local keep = team_memory.keep or {}
  team_memory.keep = keep
  local k = 1000
  for i = 1, 300 do local t = {} t[k + (i % 20)] = i keep[#keep + 1] = t end
end }
