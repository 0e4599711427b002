-- expect: timeout
-- Eight 99-wide conversions: each fills its width and makes a string.
return { name = "Hostile", run = function()
  while true do local _ = string.format("%99d%99d%99d%99d%99d%99d%99d%99d", 1,1,1,1,1,1,1,1) end
end }
