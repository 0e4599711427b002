-- expect: error
-- shown: C stack overflow
-- A string.gsub replacement function that calls gsub again with itself: a
-- Go level each time.
local function r(c) return (string.gsub("a", "a", r)) end
return { name = "Hostile", run = function()
  return (string.gsub("a", "a", r))
end }
