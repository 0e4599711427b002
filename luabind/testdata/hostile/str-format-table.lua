-- expect: error
-- shown: number expected, got table
-- Tables given to numeric and string conversions are argument errors, not
-- a dump of their contents (1,000 references to a 100 KB string once gave
-- 500 MB of text).
local big = string.rep("x", 100000)
local t = {}
for i = 1, 1000 do t[i] = big end
return { name = "Hostile", run = function()
  local ok = pcall(string.format, "%s", t)
  return string.format("%d", t)
end }
