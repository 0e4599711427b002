-- expect: error
-- No require, package or module.
return { name = "Hostile", run = function()
  return require("os").exit(1)
end }
