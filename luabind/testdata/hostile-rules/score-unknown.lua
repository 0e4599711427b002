-- want: rules.lua:3:
-- Scores a column it never declared.
return { columns = {"points"}, setup = function(g) g.score(0, "gold", 1) end, turns = function() end, resolve = function() end }
