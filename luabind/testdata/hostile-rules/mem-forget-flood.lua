-- want: the unit must be from 0 to 65535
-- turns forgets the same units over and over (a list that used to grow
-- without end), then a unit no team can have.
return {
  name = "Forget",
  turns = function(game)
    if game.round() > 3 then game.forget(0, 65536) end
    for i = 1, 120000 do game.forget(i % 2, i % 65536) end
    return nil
  end,
  resolve = function() end,
}
