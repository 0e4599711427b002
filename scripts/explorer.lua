-- Explorer: the simplest possible player. It moves south-east every round,
-- exactly like the Explorer of the original game.
return {
  name = "Explorer",
  victory = "Onwards, to the south-east!",
  defeat = "There was something in the south-east after all.",
  run = function(self, team, view, row, col)
    return MOVE, SE
  end,
}
