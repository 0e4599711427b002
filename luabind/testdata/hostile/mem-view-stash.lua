-- expect: error
-- shown: memory limit exceeded
-- Hoards strings in the view table the engine hands every call and keeps
-- between calls; no global reaches it.
return { name = "Hostile", run = function(self, team, view)
  view.stash = view.stash or {}
  for i = 1, 4 do view.stash[#view.stash + 1] = string.rep("v", 100000) .. i end
end }
