-- expect: timeout
-- % and ^ on extreme operands (constant time, computed the same on every
-- machine) and on long numeric strings (parsed, and charged by length).
return { name = "Hostile", run = function()
  local s = string.rep("1", 20000)
  local x, y = 1e308, 5e-324
  while true do
    local a = x % y + 7.3 % 2.1 + 2 ^ 0.5
    local b = s % 7 + s ^ 0.5 - -s
  end
end }
