-- expect: error
-- shown: nested more than
-- mod: ignored (no child data in a mod: the answer is plain words)
-- Hands its child data nested thousands of tables deep: the copy must not
-- recurse once per level.
return { name = "Hostile", run = function(self)
  local t = team_memory.deep or {}
  for i = 1, 500 do t = {t} end
  team_memory.deep = t
  return REPLICATE, 1, nil, t
end }
