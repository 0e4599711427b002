-- Hungry: heads straight for the pellet. Of the moves that do not kill at
-- once (off the board, into any snake's cell, its own tail included) it
-- prefers those no other head can reach this tick, then the one closest to
-- the pellet.
local MOVES = { up = { 0, 1 }, right = { 1, 0 }, down = { 0, -1 }, left = { -1, 0 } }
local NAMES = { "up", "right", "down", "left" }

-- The sets of cells are kept from call to call rather than built anew: a
-- cell is in blocked (or danger) when its entry holds the number of this
-- call, so nothing is ever cleared, and after the first calls no store
-- grows a table. A cell x, y is the key y * size + x.
local blocked, danger, call = {}, {}, 0

return {
  name = "Hungry",
  victory = "Every pellet is mine.",
  defeat = "One more bite...",
  move = function(view)
    call = call + 1
    local now = call
    local size, me = view.size, view.snakes[view.me + 1]
    local head = me.body[1]
    for _, s in ipairs(view.snakes) do
      -- every cell a snake holds now kills this tick, tails included
      local body = s.body
      for i = 1, #body do
        local p = body[i]
        blocked[p.y * size + p.x] = now
      end
      if s.team ~= view.me and #body > 0 then
        -- the cells next to another head, the walls' aliases included
        local k = body[1].y * size + body[1].x
        danger[k + size], danger[k + 1], danger[k - size], danger[k - 1] = now, now, now, now
      end
    end
    local pellet = view.pellet
    local best, bestCost = nil, nil
    for n = 1, 4 do
      local name = NAMES[n]
      local m = MOVES[name]
      local x, y = head.x + m[1], head.y + m[2]
      local k = y * size + x
      if x >= 0 and x < size and y >= 0 and y < size and blocked[k] ~= now then
        local cost = 0
        if pellet then cost = math.abs(pellet.x - x) + math.abs(pellet.y - y) end
        if danger[k] == now then cost = cost + 4 * size end
        if not bestCost or cost < bestCost then best, bestCost = name, cost end
      end
    end
    return best or me.dir
  end,
}
