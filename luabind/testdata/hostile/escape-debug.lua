-- expect: error
-- No debug library, not even through _G.
return { name = "Hostile", run = function()
  return _G.debug.getregistry()
end }
