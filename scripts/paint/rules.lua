-- Paint: SQLillo as a SquareBattle rule mod.
--
-- Up to four teams of eight workers paint a 40×40 canvas. Every tick each
-- team's strategy is called once and orders its workers one step up, down,
-- left or right. Moves happen at the same time; workers that would end in
-- the same cell all go back, again and again until no cell holds two (so
-- two workers may swap places). A worker paints the cell it stands on.
-- After 500 ticks the team with the largest 4-connected painted area wins.
--
-- Coordinates are Cartesian: x is the column, y the row, (0, 0) the bottom
-- left corner. Teams are numbered from 0.

local SIZE = 40
local WORKERS = 8

-- The starting ring around a centre: worker w sits at centre + RING[w].
--   0 3 5
--   1   6
--   2 4 7
local RING = {
  { -1, 1 }, { -1, 0 }, { -1, -1 },  -- 0 1 2: left column, top to bottom
  { 0, 1 }, { 0, -1 },               -- 3 4: middle column
  { 1, 1 }, { 1, 0 }, { 1, -1 },     -- 5 6 7: right column
}

-- Ring centres, near the corners: team 0 bottom left, team 1 top right
-- (so two teams start opposite), team 2 top left, team 3 bottom right.
local CENTRES = { { 3, 3 }, { SIZE - 4, SIZE - 4 }, { 3, SIZE - 4 }, { SIZE - 4, 3 } }

local MOVES = { up = { 0, 1 }, down = { 0, -1 }, left = { -1, 0 }, right = { 1, 0 } }

local paint = {}    -- paint[y*SIZE + x + 1]: the team whose colour the cell has, or -1
local workers = {}  -- workers[t+1][w] = { x =, y = }

local function cell(x, y) return y * SIZE + x + 1 end

local function draw(game, x, y)
  local p = paint[cell(x, y)]
  if p >= 0 then game.set(y, x, p, "trail") else game.set(y, x) end
end

-- painted[t+1] counts the cells of team t's colour, kept up to date by
-- recolour.
local painted = {}

local function recolour(c, team)
  local old = paint[c]
  if old == team then return end
  if old >= 0 then painted[old + 1] = painted[old + 1] - 1 end
  painted[team + 1] = painted[team + 1] + 1
  paint[c] = team
end

-- The flood fill's scratch, kept from tick to tick (setup fills both, so
-- no tick grows them): seen[c] == stamp marks a cell visited this tick.
local seen, stack, stamp = {}, {}, 0

-- largest returns, per team, the size of its largest 4-connected area.
-- (It runs every tick over the whole canvas: the hot loop keeps what it
-- reads in locals.)
local function largest(teams)
  stamp = stamp + 1
  local best, seen, stack, mark = {}, seen, stack, stamp
  local paint, size, last = paint, SIZE, SIZE * SIZE
  local xmax = size - 1
  for t = 1, teams do best[t] = 0 end
  for start = 1, last do
    local team = paint[start]
    if team >= 0 and seen[start] ~= mark then
      seen[start] = mark
      local n, top = 0, 1
      stack[1] = start
      while top > 0 do
        local c = stack[top]
        top = top - 1
        n = n + 1
        local x = (c - 1) % size
        local d = c - 1
        if x > 0 and paint[d] == team and seen[d] ~= mark then seen[d] = mark; top = top + 1; stack[top] = d end
        d = c + 1
        if x < xmax and paint[d] == team and seen[d] ~= mark then seen[d] = mark; top = top + 1; stack[top] = d end
        d = c - size
        if d > 0 and paint[d] == team and seen[d] ~= mark then seen[d] = mark; top = top + 1; stack[top] = d end
        d = c + size
        if d <= last and paint[d] == team and seen[d] ~= mark then seen[d] = mark; top = top + 1; stack[top] = d end
      end
      if n > best[team + 1] then best[team + 1] = n end
    end
  end
  return best
end

local function score(game)
  local teams = game.teams()
  local best = largest(teams)
  for t = 1, teams do
    game.score(t - 1, "area", best[t])
    game.score(t - 1, "painted", painted[t])
  end
end

local asked = 0 -- the round whose calls were handed out

return {
  name = "Paint",
  columns = { "area", "painted" },
  entry = "strategy",

  setup = function(game)
    if game.size() ~= SIZE then error("paint is played on a " .. SIZE .. "×" .. SIZE .. " board (arena.size)") end
    if game.teams() > 4 then error("paint takes one to four teams") end
    for c = 1, SIZE * SIZE do paint[c], seen[c], stack[c] = -1, 0, 0 end
    for t = 1, game.teams() do painted[t] = 0 end
    for t = 0, game.teams() - 1 do
      local centre = CENTRES[t + 1]
      workers[t + 1] = {}
      for w = 1, WORKERS do
        local x, y = centre[1] + RING[w][1], centre[2] + RING[w][2]
        workers[t + 1][w] = { x = x, y = y }
        recolour(cell(x, y), t)
        game.set(y, x, t, "unit")
      end
    end
    score(game)
  end,

  -- One call per team per tick, all at once. The view is the whole canvas
  -- and every worker; memory (the strategy's second argument) is kept.
  turns = function(game)
    if asked == game.round() then return nil end
    asked = game.round()
    local all = {}
    for t = 1, game.teams() do
      for w = 1, WORKERS do
        local k = workers[t][w]
        all[#all + 1] = { x = k.x, y = k.y, team = t - 1 }
      end
    end
    local calls = {}
    for t = 1, game.teams() do
      local mine = {}
      for w = 1, WORKERS do mine[w] = { x = workers[t][w].x, y = workers[t][w].y } end
      calls[t] = { team = t - 1, view = {
        team = t - 1, size = SIZE, tick = game.round(), ticks = game.rounds(),
        paint = paint, workers = all, mine = mine,
      } }
    end
    return calls
  end,

  -- answers[i] is team i-1's orders: orders[w] is "up", "down", "left" or
  -- "right" for worker w (1 to 8); anything else leaves the worker still.
  resolve = function(game, calls, answers)
    local from, to = {}, {}
    for i, call in ipairs(calls) do
      local t = call.team + 1
      local orders = answers[i]
      for w = 1, WORKERS do
        local k = workers[t][w]
        local id = (t - 1) * WORKERS + w
        from[id] = { k.x, k.y }
        local nx, ny = k.x, k.y
        local m = type(orders) == "table" and MOVES[orders[w]]
        if m then
          nx, ny = k.x + m[1], k.y + m[2]
          if nx < 0 or nx >= SIZE or ny < 0 or ny >= SIZE then nx, ny = k.x, k.y end
        end
        to[id] = { nx, ny }
      end
    end
    -- Workers sharing a cell go back where they were, until none share.
    local moved = true
    while moved do
      moved = false
      local count = {}
      for id, p in pairs(to) do
        local c = cell(p[1], p[2])
        count[c] = (count[c] or 0) + 1
      end
      for id, p in pairs(to) do
        if count[cell(p[1], p[2])] > 1 and (p[1] ~= from[id][1] or p[2] ~= from[id][2]) then
          to[id] = { from[id][1], from[id][2] }
          moved = true
        end
      end
    end
    for id, p in pairs(from) do draw(game, p[1], p[2]) end
    for id, p in pairs(to) do
      local t = (id - 1 - (id - 1) % WORKERS) / WORKERS
      local w = (id - 1) % WORKERS + 1
      workers[t + 1][w].x, workers[t + 1][w].y = p[1], p[2]
      recolour(cell(p[1], p[2]), t)
    end
    for id, p in pairs(to) do
      local t = (id - 1 - (id - 1) % WORKERS) / WORKERS
      game.set(p[2], p[1], t, "unit")
    end
    score(game)
  end,
}
