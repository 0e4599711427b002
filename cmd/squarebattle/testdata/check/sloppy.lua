-- Sloppy: a Paint player (check --game paint) that orders every worker up
-- and, on every third tick, reads a field of nothing.
return {
  name = "Sloppy",
  strategy = function(view, memory)
    if view.tick and view.tick % 3 == 0 then
      local x = memory.nothing.here
    end
    local orders = {}
    for w in ipairs(view.mine) do
      orders[w] = "up"
    end
    return orders
  end,
}
