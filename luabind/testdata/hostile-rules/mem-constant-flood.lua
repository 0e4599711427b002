-- want: memory limit exceeded
-- Every call declares a new big table constant: copies kept for the whole
-- battle, which used to pile up without a bound: now counted to the rules.
return {
  name = "Constant",
  turns = function(game)
    for k = 1, 4 do
      local t = {}
      for i = 1, 60000 do t[i] = i end
      game.constant(t)
    end
    return nil
  end,
  resolve = function() end,
}
