-- expect: error
return { name = "Hostile", run = function()
  local function f(n) return 1 + f(n + 1) end
  return f(1)
end }
