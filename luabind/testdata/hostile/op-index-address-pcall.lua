-- expect: error
-- shown: attempt to index a nil value
-- The index error caught by pcall and keyed on: the text must be the same
-- in every run, so it carries no address.
local seen = {}
return { name = "Hostile", run = function(self)
  local ok, e = pcall(function() local t = {} return t.missing.deeper[print] end)
  local ok2, e2 = pcall(function() return (nil)[function() end] end)
  seen[e .. e2] = true
  error(e2)
end }
