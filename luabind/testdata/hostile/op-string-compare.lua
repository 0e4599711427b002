-- expect: timeout
-- <, <= and == on two 1 MiB strings read them byte by byte in one
-- instruction; the comparison is charged by the bytes it reads.
return { name = "Hostile", run = function()
  local a = string.rep("a", 1048575)
  local b = a .. "b"
  local c = string.rep("a", 1048575)
  local n = 0
  while true do
    if a < b then n = n + 1 end
    if a <= b then n = n + 1 end
    if a == c then n = n + 1 end
  end
end }
