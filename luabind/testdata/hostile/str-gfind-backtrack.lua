-- expect: timeout
-- string.gfind (Lua 5.1's old name for gmatch) with exponential backtracking:
-- it must be the project's charged matcher, not gopher-lua's own.
return { name = "Hostile", run = function()
  for x in string.gfind(("a"):rep(28), "a*a*a*a*a*a*a*a*b") do end
end }
