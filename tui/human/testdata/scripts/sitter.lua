-- Sitter: waits (the human tests' opponent).
return {
  name = "Sitter",
  run = function(self) return WAIT end,
}
