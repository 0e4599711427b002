-- expect: error
-- The string library reached through a string's metatable has no os or io.
return { name = "Hostile", run = function()
  local lib = getmetatable("").__index
  return lib.os.execute("true")
end }
