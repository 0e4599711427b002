-- Cautious: looks before it leaps. For each move that does not kill at
-- once it flood-fills the free cells it could still reach from there and
-- keeps the moves that leave it room (at least twice its length, or the
-- most room there is). Among those it avoids cells another head can reach
-- this tick and then goes for the pellet.
local MOVES = { up = { 0, 1 }, right = { 1, 0 }, down = { 0, -1 }, left = { -1, 0 } }
local NAMES = { "up", "right", "down", "left" }

-- The sets of cells and the fill's stack are kept from call to call rather
-- than built anew: a cell is in blocked (or danger) when its entry holds
-- the number of this call, and seen by a fill when its entry holds the
-- number of that fill, so nothing is ever cleared, and after the first
-- calls no store grows a table. A cell x, y is the key y * size + x.
local blocked, danger, seen, stack = {}, {}, {}, {}
local call, fill = 0, 0

-- room counts the free cells reachable from (x, y), stopping at cap. The
-- count is the same whatever order the cells are visited in: all of them,
-- or cap when there are more.
local function room(size, x, y, cap)
  fill = fill + 1
  local now, free = fill, call
  local start = y * size + x
  seen[start] = now
  stack[1] = start
  local top, n = 1, 0
  while top > 0 and n < cap do
    local c = stack[top]
    top = top - 1
    n = n + 1
    local cx = c % size
    local k = c + size -- up
    if k < size * size and blocked[k] ~= free and seen[k] ~= now then
      seen[k] = now
      top = top + 1
      stack[top] = k
    end
    k = c + 1 -- right
    if cx + 1 < size and blocked[k] ~= free and seen[k] ~= now then
      seen[k] = now
      top = top + 1
      stack[top] = k
    end
    k = c - size -- down
    if k >= 0 and blocked[k] ~= free and seen[k] ~= now then
      seen[k] = now
      top = top + 1
      stack[top] = k
    end
    k = c - 1 -- left
    if cx > 0 and blocked[k] ~= free and seen[k] ~= now then
      seen[k] = now
      top = top + 1
      stack[top] = k
    end
  end
  return n
end

-- The moves that leave room, kept between calls: name, cell and room.
local names, xs, ys, rooms = {}, {}, {}, {}

return {
  name = "Cautious",
  victory = "Slow and steady.",
  defeat = "I was cornered.",
  move = function(view)
    call = call + 1
    local now = call
    local size, me = view.size, view.snakes[view.me + 1]
    local head = me.body[1]
    for _, s in ipairs(view.snakes) do
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
    local want = 2 * #me.body + 4
    local options, most = 0, 0
    for n = 1, 4 do
      local name = NAMES[n]
      local m = MOVES[name]
      local x, y = head.x + m[1], head.y + m[2]
      if x >= 0 and x < size and y >= 0 and y < size and blocked[y * size + x] ~= now then
        local r = room(size, x, y, want)
        options = options + 1
        names[options], xs[options], ys[options], rooms[options] = name, x, y, r
        if r > most then most = r end
      end
    end
    local enough = want
    if most < enough then enough = most end
    local pellet = view.pellet
    local best, bestCost = nil, nil
    for o = 1, options do
      if rooms[o] >= enough then
        local x, y = xs[o], ys[o]
        local cost = 0
        if pellet then cost = math.abs(pellet.x - x) + math.abs(pellet.y - y) end
        if danger[y * size + x] == now then cost = cost + 4 * size end
        if not bestCost or cost < bestCost then best, bestCost = names[o], cost end
      end
    end
    return best or me.dir
  end,
}
