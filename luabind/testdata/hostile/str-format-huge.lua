-- expect: error
-- shown: invalid format
-- Widths and precisions have two digits at most; the longest numeric piece
-- is a few hundred bytes, and %q of NULs (4 bytes each) meets the length limit.
local zeros = string.rep("\0", 300000)
return { name = "Hostile", run = function()
  local s = string.format("%99.99f", 1e308)
  assert(not pcall(string.format, "%q", zeros))
  return string.format("%5000d", 1)
end }
