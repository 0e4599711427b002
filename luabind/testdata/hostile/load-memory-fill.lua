-- expect: error
-- shown: kept 8 strings
-- A top level that keeps as much memory as one call's budget can build.
-- Each file loads in a Lua state of its own, so the files loaded after it
-- (victim.lua here) load as if it were not there.
keep = {}
for i = 1, 8 do keep[i] = string.rep(string.char(64 + i), 140000) end
return { name = "Filler", run = function() error("kept " .. #keep .. " strings") end }
