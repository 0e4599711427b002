return { name = "Bench", run = function(self, team, view, row, col)
  local enemies = 0
  for d = 1, 8 do
    local v = view[d]
    if v ~= team and v ~= EMPTY then enemies = enemies + 1 end
  end
  self.enemies = enemies
  return WAIT
end }
