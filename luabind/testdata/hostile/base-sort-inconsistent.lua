-- expect: error
-- shown: invalid order function for sorting
-- A comparator that says a < b and b < a: Lua 5.1's sort notices when its
-- scan runs off the list; it must not loop, nor read past the list.
return { name = "Hostile", run = function()
  local t = {}
  for i = 1, 100 do t[i] = i end
  table.sort(t, function(a, b) return true end)
end }
