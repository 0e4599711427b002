-- want: rules.lua:3:
-- Loops inside a coroutine, if it can make one.
return { setup = function() local co = coroutine.create(function() while true do end end); coroutine.resume(co) end,
  turns = function() end, resolve = function() end }
