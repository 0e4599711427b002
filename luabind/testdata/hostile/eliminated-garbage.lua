-- expect: error
-- mod: ignored (rule mods call no eliminated hook)
-- shown: .lua:6: eliminated: 
-- Returns garbage from the hook (ignored), but indexes nil on the way out.
return { name = "Hostile", run = function() return nil end,
  eliminated = function(self) local n = nil; self.x = 0/0; return {}, 1e308, math.huge, n.x end }
