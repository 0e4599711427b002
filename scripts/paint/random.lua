-- Random Painter: every worker steps in a random direction every tick.
local DIRECTIONS = { "up", "down", "left", "right" }

return {
  name = "Random Painter",
  victory = "Chaos is a colour too.",
  strategy = function(view, memory)
    local orders = {}
    for w = 1, #view.mine do
      orders[w] = DIRECTIONS[math.random(4)]
    end
    return orders
  end,
}
