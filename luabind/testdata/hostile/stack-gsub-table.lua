-- expect: error
-- shown: C stack overflow
-- A string.gsub replacement table whose __index calls gsub again with the
-- table: a Go level each time.
local g = setmetatable({}, {})
getmetatable(g).__index = function(t, k) return (string.gsub("a", "a", g)) end
return { name = "Hostile", run = function()
  return (string.gsub("a", "a", g))
end }
