-- expect: timeout
-- mod: ignored (rule mods call no eliminated hook)
-- shown: .lua:6: eliminated: 
-- An endless loop in the eliminated hook.
return { name = "Hostile", run = function() end,
  eliminated = function() while true do end end }
