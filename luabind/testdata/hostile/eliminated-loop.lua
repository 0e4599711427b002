-- expect: timeout
-- shown: .lua:5: eliminated: 
-- An endless loop in the eliminated hook.
return { name = "Hostile", run = function() end,
  eliminated = function() while true do end end }
