-- expect: error
return { name = "Hostile", run = function()
  if os then os.exit(3) end
  if io then io.write("x") end
  local f = dofile or load or loadstring or require or loadfile
  f("/etc/passwd")
end }
