-- expect: error
-- mod: ignored (rule mods call no eliminated hook)
-- shown: .lua:6: eliminated: 
-- Builds a huge string when a square dies, and returns garbage from the hook.
return { name = "Hostile", run = function() end,
  eliminated = function() local s = string.rep("x", 1e9); return s, 0/0, {} end }
