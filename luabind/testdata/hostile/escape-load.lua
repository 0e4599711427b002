-- expect: error
-- No load, loadstring or dofile: source cannot be compiled at run time.
return { name = "Hostile", run = function()
  return load("return os")().exit(1)
end }
