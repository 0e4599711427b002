-- expect: timeout
-- A caught runtime error of the VM's own (indexing nil), with its position.
return { name = "Hostile", run = function()
  local t
  while true do pcall(function() return t.x end) end
end }
