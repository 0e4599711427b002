-- expect: error
-- shown: memory limit exceeded
-- Keeps 13 MB in a global, then holds 6 MB more in locals only, in
-- registers mid-call: the census in the middle of the call must see them.
return { name = "Hostile", run = function()
  keep = keep or {}
  if #keep < 13 then
    for i = 1, 4 do keep[#keep + 1] = string.rep("k", 1000000) .. #keep end
    return
  end
  local a = string.rep("a", 1000000) .. 1
  local b = string.rep("b", 1000000) .. 2
  local c = string.rep("c", 1000000) .. 3
  local d = string.rep("d", 1000000) .. 4
  return #a + #b + #c + #d
end }
