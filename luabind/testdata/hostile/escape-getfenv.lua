-- expect: error
-- getfenv is not there to climb out of the sandbox.
return { name = "Hostile", run = function()
  return getfenv(0).os.exit(1)
end }
