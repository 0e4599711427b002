-- expect: timeout
-- Small parts of ever new 1 MB strings, kept: each part is a copy, so the
-- megabytes behind them are freed and the census counts what is held.
local keep, n = {}, 0
return { name = "Hostile", run = function()
  while true do
    n = n + 1
    local big = string.rep(string.char(65 + n % 26), 1000000) .. n
    keep[#keep + 1] = big:sub(n % 1000 + 1, n % 1000 + 100)
    keep[#keep + 1] = big:match("(" .. string.rep(".", 80) .. ")")
  end
end }
