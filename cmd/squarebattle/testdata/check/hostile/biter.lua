-- Biter: Hungry, which fails once the game is 20 ticks old (its snake
-- then runs straight on into a wall).
local MOVES = { up = { 0, 1 }, right = { 1, 0 }, down = { 0, -1 }, left = { -1, 0 } }
local NAMES = { "up", "right", "down", "left" }

return {
  name = "Biter",
  move = function(view)
    if view.tick > 20 then
      return view.nothing.here -- line 10
    end
    local size, me = view.size, view.snakes[view.me + 1]
    local head = me.body[1]
    local blocked, danger = {}, {}
    for _, s in ipairs(view.snakes) do
      local n = #s.body
      -- every cell a snake holds now kills this tick, tails included
      for _, p in ipairs(s.body) do blocked[p.y * size + p.x] = true end
      if s.team ~= view.me and n > 0 then
        local h = s.body[1]
        for _, m in pairs(MOVES) do danger[(h.y + m[2]) * size + h.x + m[1]] = true end
      end
    end
    local best, bestCost = nil, nil
    for _, name in ipairs(NAMES) do
      local x, y = head.x + MOVES[name][1], head.y + MOVES[name][2]
      if x >= 0 and x < size and y >= 0 and y < size and not blocked[y * size + x] then
        local cost = 0
        if view.pellet then cost = math.abs(view.pellet.x - x) + math.abs(view.pellet.y - y) end
        if danger[y * size + x] then cost = cost + 4 * size end
        if not bestCost or cost < bestCost then best, bestCost = name, cost end
      end
    end
    return best or me.dir
  end,
}
