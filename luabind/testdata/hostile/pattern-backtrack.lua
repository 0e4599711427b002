-- expect: timeout
-- Exponential backtracking: seconds of work for a plain matcher.
return { name = "Hostile", run = function()
  return string.find(string.rep("a", 25), "a*a*a*a*a*a*a*a*a*b")
end }
