-- expect: error
-- shown: limits.string_bytes
-- A replacement that repeats the whole match thousands of times: each
-- replacement is measured and charged before it is built.
local s = string.rep("x", 1000)
return { name = "Hostile", run = function()
  return (s:gsub("x+", string.rep("%0", 5000)))
end }
