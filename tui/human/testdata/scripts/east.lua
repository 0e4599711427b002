-- East: walks east every round (the autopilot of the human tests).
return {
  name = "East",
  run = function(self) return MOVE, E end,
}
