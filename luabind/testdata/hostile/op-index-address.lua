-- expect: error
-- shown: attempt to index local 'x' (a nil value)
-- Indexing nil with a table key: gopher-lua's own message prints the key's
-- Go address, which differs from run to run.
return { name = "Hostile", run = function()
  local x
  return x[{}]
end }
