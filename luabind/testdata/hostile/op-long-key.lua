-- expect: timeout
-- A 1 MiB string as a table key, in a loop: every lookup hashes the whole
-- key, and is charged by its length.
return { name = "Hostile", run = function()
  local k = string.rep("k", 1048576)
  local t, s = {}, setmetatable({}, {__index = {}})
  while true do
    t[k] = 1
    local x = t[k]
    local y = s[k]
  end
end }
