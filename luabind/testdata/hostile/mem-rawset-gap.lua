-- expect: timeout
-- shown: instruction budget exceeded
-- rawset far past the end of an empty array fills the gap with nils at
-- once: 16 KiB for one call of rawset.
-- Each gap is charged as the values it stores before it is filled: the
-- budget runs out after ~130 tables (2 MiB) a call, and the census counts
-- what piles up over the calls.
return { name = "Hostile", run = function()
  local keep = team_memory.keep or {}
  team_memory.keep = keep
  for i = 1, 300 do local t = {} rawset(t, 1023, i) keep[#keep + 1] = t end
end }
