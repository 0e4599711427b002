-- expect: error
-- mod: ignored (rule mods call no eliminated hook)
-- shown: .lua:7: eliminated: not fair, Victim
-- Waits like an idle square, then raises an error from the hook that runs
-- when one of its squares dies.
return { name = "Hostile", run = function() end,
  eliminated = function(self, team, killer) error("not fair, " .. tostring(killer)) end }
