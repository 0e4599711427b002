-- Cautious: looks before it leaps. For each move that does not kill at
-- once it flood-fills the free cells it could still reach from there and
-- keeps the moves that leave it room (at least twice its length, or the
-- most room there is). Among those it avoids cells another head can reach
-- this tick and then goes for the pellet.
local MOVES = { up = { 0, 1 }, right = { 1, 0 }, down = { 0, -1 }, left = { -1, 0 } }
local NAMES = { "up", "right", "down", "left" }

-- room counts the free cells reachable from (x, y), stopping at cap.
local function room(size, blocked, x, y, cap)
  local seen, stack, n = { [y * size + x] = true }, { y * size + x }, 0
  while #stack > 0 and n < cap do
    local c = stack[#stack]
    stack[#stack] = nil
    n = n + 1
    local cx, cy = c % size, (c - c % size) / size
    for _, m in pairs(MOVES) do
      local nx, ny = cx + m[1], cy + m[2]
      local k = ny * size + nx
      if nx >= 0 and nx < size and ny >= 0 and ny < size and not blocked[k] and not seen[k] then
        seen[k] = true
        stack[#stack + 1] = k
      end
    end
  end
  return n
end

return {
  name = "Cautious",
  victory = "Slow and steady.",
  defeat = "I was cornered.",
  move = function(view)
    local size, me = view.size, view.snakes[view.me + 1]
    local head = me.body[1]
    local blocked, danger = {}, {}
    for _, s in ipairs(view.snakes) do
      local n = #s.body
      for _, p in ipairs(s.body) do blocked[p.y * size + p.x] = true end
      if s.team ~= view.me and n > 0 then
        local h = s.body[1]
        for _, m in pairs(MOVES) do danger[(h.y + m[2]) * size + h.x + m[1]] = true end
      end
    end
    local want = 2 * #me.body + 4
    local options = {}
    local most = 0
    for _, name in ipairs(NAMES) do
      local x, y = head.x + MOVES[name][1], head.y + MOVES[name][2]
      if x >= 0 and x < size and y >= 0 and y < size and not blocked[y * size + x] then
        blocked[y * size + x] = true
        local r = room(size, blocked, x, y, want)
        blocked[y * size + x] = nil
        options[#options + 1] = { name = name, x = x, y = y, room = r }
        if r > most then most = r end
      end
    end
    local best, bestCost = nil, nil
    for _, o in ipairs(options) do
      if o.room >= math.min(want, most) then
        local cost = 0
        if view.pellet then cost = math.abs(view.pellet.x - o.x) + math.abs(view.pellet.y - o.y) end
        if danger[o.y * size + o.x] then cost = cost + 4 * size end
        if not bestCost or cost < bestCost then best, bestCost = o.name, cost end
      end
    end
    return best or me.dir
  end,
}
