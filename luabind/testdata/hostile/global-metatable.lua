-- expect: error
-- A metatable on the script's globals only changes the script's own globals.
setmetatable(_G, {__index = function(t, k) error("no global " .. tostring(k)) end})
return { name = "Hostile", run = function()
  return undefined_global
end }
