-- Greedy Painter: each worker keeps its heading while it leads onto cells
-- its team has not painted yet; otherwise it turns towards a neighbouring
-- cell that is not the team's colour, and failing that, anywhere. A worker
-- that did not move last tick (it was blocked) picks a new heading.
local STEPS = { up = { 0, 1 }, down = { 0, -1 }, left = { -1, 0 }, right = { 1, 0 } }
local NAMES = { "up", "down", "left", "right" }

return {
  name = "Greedy Painter",
  victory = "Every cell, one at a time.",
  strategy = function(view, memory)
    local size, team, paint = view.size, view.team, view.paint
    memory.heading = memory.heading or {}
    memory.last = memory.last or {}
    local function fresh(x, y)
      return x >= 0 and x < size and y >= 0 and y < size and paint[y * size + x + 1] ~= team
    end
    local orders = {}
    for w, k in ipairs(view.mine) do
      local h = memory.heading[w]
      local last = memory.last[w]
      local blocked = last and last.x == k.x and last.y == k.y
      memory.last[w] = { x = k.x, y = k.y }
      if blocked or not (h and fresh(k.x + STEPS[h][1], k.y + STEPS[h][2])) then
        local options = {}
        for _, name in ipairs(NAMES) do
          if fresh(k.x + STEPS[name][1], k.y + STEPS[name][2]) then options[#options + 1] = name end
        end
        if #options > 0 then h = options[math.random(#options)] else h = NAMES[math.random(4)] end
      end
      memory.heading[w] = h
      orders[w] = h
    end
    return orders
  end,
}
