-- expect: timeout
-- Distinct long patterns, one after another: compiling is charged and the
-- compiled-pattern cache stays bounded by entries and bytes.
local base, n = string.rep("[ab]x", 500), 0
return { name = "Hostile", run = function()
  while true do
    n = n + 1
    string.find("abc", base .. n .. "%d*")
  end
end }
