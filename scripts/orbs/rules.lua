-- Orbs: Battlehack: Voyage (IEEE SoutheastCon 2019) as a rule mod.
--
-- Two teams, one planet each, on a square map of 30×30 to 40×40 tiles that
-- the seed generates, mirrored top to bottom ("horizontal") or left to right
-- ("vertical"). Tiles are passable or not; each passable tile holds 0 to 7
-- orbs for the whole game. Units take turns from a queue: the two planets
-- (team 0, then team 1), then every voyager in the order it was built; a
-- voyager built during a round joins the end of the queue at once and acts
-- in that same round.
--
-- On its turn a voyager may step one tile north, south, east or west onto a
-- free passable tile that is not next to (diagonals too) a voyager of its
-- own team; a planet may build a voyager on a free passable tile next to it
-- (diagonals too) for 65536 orbs. Any unit may broadcast a signal from 0 to
-- 65535 that everyone sees until the sender's next turn (0 when it sends
-- none). After the last turn of a round each team collects the orbs of
-- every tile strictly closer (Manhattan) to one of its voyagers than to any
-- enemy voyager; ties and planets collect nothing. After 256 rounds the team
-- with the most orbs wins, then the one with more units, then a coin toss
-- drawn from the battle's seed.
--
-- Choices the seed leaves open:
--   * each team starts with 65536 orbs, the price of its first voyager;
--   * the chess clock is counted in instructions at 10,000 a millisecond: a
--     unit starts with 1,000,000 (100 ms) and gains 200,000 (20 ms) at the
--     start of every round after the one it was built in (planets: from
--     round 1). A turn is stopped at 2,000,000 (200 ms), whatever the clock
--     holds; what it ran comes off the clock, which may go below zero, and
--     a unit whose clock is not above zero gets no turn (no action, its
--     signal goes back to 0) until the rounds' gains make it positive. A
--     turn that is stopped does nothing; one that answers in time acts, even
--     if it overdrew the clock.
--
-- Coordinates are the seed's: (0, 0) is the top left tile, r counts rows
-- downwards, c columns rightwards. Grids are flat: tile (r, c) is entry
-- r*n + c + 1. (The board people watch has row 0 at the bottom; only the
-- drawing converts.)
--
-- The players' entry is turn(view, memory); view is
--   me = { id, unit, team, r, c, signal, turn, time (the clock, in
--          instructions), budget (the most this turn may run) }
--   n, round, rounds, orbs (the team's), cost (of a voyager)
--   map[i] (true: passable), orbs_map[i] (0 to 7)
--   robots = every unit in id order: { id, unit, signal, visible } and, when
--            visible (squared distance at most 4), team, r and c
-- and the answer is a table: { move = { dr, dc } } for a voyager,
-- { build = { dr, dc } } for a planet, and signal = a number from 0 to 65535
-- alongside either (or alone). Anything else does nothing.

local MIN_SIZE, MAX_SIZE = 30, 40
local PLANET, VOYAGER = 0, 1
local COST = 65536
local START_ORBS = 65536     -- a team's orbs at the start: one voyager
local CLOCK_START = 1000000  -- 100 ms at 10,000 instructions a millisecond
local CLOCK_GAIN = 200000    -- 20 ms a round
local CLOCK_CAP = 2000000    -- 200 ms: a turn is stopped there
local VISION = 4             -- squared vision radius
local MAX_ID = 4096
local FAR = 1000000          -- farther than any tile

local n = 0
local symmetry = "horizontal"
local passable, orbs = {}, {}   -- [r*n + c + 1]
local held = {}                 -- [tile]: the team that collected it last round
local units, queue, sorted = {}, {}, {}  -- units by id; ids in turn order; ids in id order
local occupant = {}             -- [tile]: the id of the unit there
local bank, collected = { START_ORBS, START_ORBS }, { 0, 0 }
local started, pos = 0, 1       -- the round whose queue is running, and its next entry
local current                   -- the unit whose turn was handed out

local function tile(r, c) return r * n + c + 1 end
local function inside(r, c) return r >= 0 and r < n and c >= 0 and c < n end
local function integer(v) return type(v) == "number" and v == math.floor(v) end

local function mirror(r, c)
  if symmetry == "horizontal" then return n - 1 - r, c end
  return r, n - 1 - c
end

-- Drawing: the board has row 0 at the bottom.
local function ground(game, r, c)
  local i = tile(r, c)
  if not passable[i] then
    game.set(n - 1 - r, c, nil, "wall")
  elseif held[i] then
    game.set(n - 1 - r, c, held[i], "trail", orbs[i] * 36)
  else
    game.set(n - 1 - r, c, nil, "value", orbs[i] * 36)
  end
end

local function drawUnit(game, u)
  game.set(n - 1 - u.r, u.c, u.team, "unit", u.unit == PLANET and 1 or 0)
end

local function score(game)
  local voyagers = { 0, 0 }
  for _, id in ipairs(queue) do
    local u = units[id]
    if u.unit == VOYAGER then voyagers[u.team + 1] = voyagers[u.team + 1] + 1 end
  end
  for t = 1, 2 do
    game.score(t - 1, "orbs", bank[t])
    game.score(t - 1, "voyagers", voyagers[t])
    game.score(t - 1, "collected", collected[t])
  end
end

-- Map generation -----------------------------------------------------------

-- blob makes the tiles within Manhattan distance radius of (r, c), and of
-- its mirror image, impassable.
local function blob(r, c, radius)
  for dr = -radius, radius do
    for dc = -radius + math.abs(dr), radius - math.abs(dr) do
      local rr, cc = r + dr, c + dc
      if inside(rr, cc) then
        passable[tile(rr, cc)] = false
        local mr, mc = mirror(rr, cc)
        passable[tile(mr, mc)] = false
      end
    end
  end
end

-- reach marks the passable tiles 4-connected to (r, c).
local function reach(r, c)
  local seen, stack = { [tile(r, c)] = true }, { tile(r, c) }
  while #stack > 0 do
    local i = stack[#stack]
    stack[#stack] = nil
    local ir, ic = (i - 1 - (i - 1) % n) / n, (i - 1) % n
    for _, d in ipairs({ { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }) do
      local rr, cc = ir + d[1], ic + d[2]
      if inside(rr, cc) then
        local j = tile(rr, cc)
        if passable[j] and not seen[j] then
          seen[j] = true
          stack[#stack + 1] = j
        end
      end
    end
  end
  return seen
end

-- generate lays out walls, orbs and the two planets' tiles; it returns
-- planet 0's tile (planet 1 stands at its mirror image).
local function generate(game)
  symmetry = game.random(2) == 1 and "horizontal" or "vertical"
  local half = (n - n % 2) / 2 -- rows (or columns) 0 .. half-1 are team 0's side
  -- Team 0's planet, in its half, away from the edge and the mirror line.
  local a, b = game.random(2, half - 4), game.random(2, n - 3)
  local pr, pc = a, b
  if symmetry == "vertical" then pr, pc = b, a end
  local qr, qc = mirror(pr, pc)
  -- Orbs: a few hills (mirrored) plus a little noise, 0 to 7.
  local hills = {}
  for h = 1, game.random(5, 9) do
    local r, c = game.random(0, n - 1), game.random(0, n - 1)
    local top = game.random(4, 9)
    hills[#hills + 1] = { r, c, top }
    local mr, mc = mirror(r, c)
    hills[#hills + 1] = { mr, mc, top }
  end
  for r = 0, n - 1 do
    for c = 0, n - 1 do
      local mr, mc = mirror(r, c)
      local i, m = tile(r, c), tile(mr, mc)
      if m < i then
        orbs[i] = orbs[m]
      else
        local v = game.random(0, 1)
        for _, hl in ipairs(hills) do
          local d = math.abs(r - hl[1]) + math.abs(c - hl[2])
          if d < 2 * hl[3] then v = v + hl[3] - (d - d % 2) / 2 end
        end
        orbs[i] = math.min(7, v)
      end
    end
  end
  -- Walls: mirrored blobs, kept off the planets and their neighbours, and
  -- never cutting one planet off the other (after ten tries, no walls).
  for try = 1, 11 do
    for i = 1, n * n do passable[i] = true end
    if try <= 10 then
      for k = 1, game.random(math.floor(n / 3), math.floor(n / 2)) do
        blob(game.random(0, n - 1), game.random(0, n - 1), game.random(0, 2))
      end
      for dr = -1, 1 do
        for dc = -1, 1 do
          passable[tile(pr + dr, pc + dc)] = true
          passable[tile(qr + dr, qc + dc)] = true
        end
      end
    end
    local seen = reach(pr, pc)
    if seen[tile(qr, qc)] then
      for i = 1, n * n do
        if not seen[i] then passable[i] = false end
      end
      break
    end
  end
  for i = 1, n * n do
    if not passable[i] then orbs[i] = 0 end
  end
  return pr, pc
end

-- Units ----------------------------------------------------------------------

local function place(game, team, kind, r, c)
  local id
  repeat id = game.random(MAX_ID) until not units[id]
  local u = { id = id, team = team, unit = kind, r = r, c = c, signal = 0, turn = 0,
    clock = CLOCK_START, born = game.round() }
  units[id] = u
  queue[#queue + 1] = id
  local k = #sorted + 1
  while k > 1 and sorted[k - 1] > id do
    sorted[k] = sorted[k - 1]
    k = k - 1
  end
  sorted[k] = id
  occupant[tile(r, c)] = id
  drawUnit(game, u)
  return u
end

local function free(r, c)
  return inside(r, c) and passable[tile(r, c)] and occupant[tile(r, c)] == nil
end

-- crowded: a voyager of team other than unit self stands next to (r, c),
-- diagonals included.
local function crowded(team, r, c, self)
  for dr = -1, 1 do
    for dc = -1, 1 do
      if (dr ~= 0 or dc ~= 0) and inside(r + dr, c + dc) then
        local id = occupant[tile(r + dr, c + dc)]
        if id and id ~= self then
          local o = units[id]
          if o.unit == VOYAGER and o.team == team then return true end
        end
      end
    end
  end
  return false
end

local function move(game, u, dr, dc)
  if not (integer(dr) and integer(dc)) or math.abs(dr) + math.abs(dc) ~= 1 then return end
  local r, c = u.r + dr, u.c + dc
  if not free(r, c) or crowded(u.team, r, c, u.id) then return end
  occupant[tile(u.r, u.c)] = nil
  ground(game, u.r, u.c)
  u.r, u.c = r, c
  occupant[tile(r, c)] = u.id
  drawUnit(game, u)
end

local function build(game, u, dr, dc)
  if not (integer(dr) and integer(dc)) or math.max(math.abs(dr), math.abs(dc)) ~= 1 then return end
  local t = u.team + 1
  if bank[t] < COST or not free(u.r + dr, u.c + dc) then return end
  bank[t] = bank[t] - COST
  place(game, u.team, VOYAGER, u.r + dr, u.c + dc)
  score(game)
end

-- Collection -------------------------------------------------------------------

-- distances returns every tile's Manhattan distance to the nearest voyager
-- of team (FAR with none): a two-pass distance transform.
local function distances(team)
  local d = {}
  for i = 1, n * n do d[i] = FAR end
  for _, id in ipairs(queue) do
    local u = units[id]
    if u.unit == VOYAGER and u.team == team then d[tile(u.r, u.c)] = 0 end
  end
  for r = 0, n - 1 do
    for c = 0, n - 1 do
      local i = tile(r, c)
      local v = d[i]
      if r > 0 and d[i - n] + 1 < v then v = d[i - n] + 1 end
      if c > 0 and d[i - 1] + 1 < v then v = d[i - 1] + 1 end
      d[i] = v
    end
  end
  for r = n - 1, 0, -1 do
    for c = n - 1, 0, -1 do
      local i = tile(r, c)
      local v = d[i]
      if r < n - 1 and d[i + n] + 1 < v then v = d[i + n] + 1 end
      if c < n - 1 and d[i + 1] + 1 < v then v = d[i + 1] + 1 end
      d[i] = v
    end
  end
  return d
end

local function collect(game)
  local d0, d1 = distances(0), distances(1)
  local gain = { 0, 0 }
  for i = 1, n * n do
    local t
    if d0[i] < d1[i] then t = 0 elseif d1[i] < d0[i] then t = 1 end
    if t and passable[i] then
      held[i] = t
      gain[t + 1] = gain[t + 1] + orbs[i]
    else
      held[i] = nil
    end
  end
  for t = 1, 2 do
    bank[t] = bank[t] + gain[t]
    collected[t] = collected[t] + gain[t]
  end
  for r = 0, n - 1 do
    for c = 0, n - 1 do ground(game, r, c) end
  end
  for _, id in ipairs(queue) do drawUnit(game, units[id]) end
  score(game)
end

-- decide names the winner: most orbs, then most units, then a coin toss.
local function decide(game)
  local count = { 0, 0 }
  for _, id in ipairs(queue) do
    local t = units[id].team + 1
    count[t] = count[t] + 1
  end
  local winner
  if bank[1] ~= bank[2] then
    winner = bank[1] > bank[2] and 0 or 1
  elseif count[1] ~= count[2] then
    winner = count[1] > count[2] and 0 or 1
  else
    winner = game.random(0, 1)
  end
  game.finish(winner)
end

-- Views ----------------------------------------------------------------------

local function view(game, u)
  local robots = {}
  for k, id in ipairs(sorted) do
    local o = units[id]
    local dr, dc = o.r - u.r, o.c - u.c
    if dr * dr + dc * dc <= VISION then
      robots[k] = { id = id, unit = o.unit, signal = o.signal, visible = true, team = o.team, r = o.r, c = o.c }
    else
      robots[k] = { id = id, unit = o.unit, signal = o.signal, visible = false }
    end
  end
  return {
    me = { id = u.id, unit = u.unit, team = u.team, r = u.r, c = u.c, signal = u.signal,
      turn = u.turn, time = u.clock, budget = CLOCK_CAP },
    n = n, round = game.round(), rounds = game.rounds(), orbs = bank[u.team + 1], cost = COST,
    map = passable, orbs_map = orbs, robots = robots,
  }
end

return {
  name = "Orbs (Battlehack: Voyage)",
  columns = { "orbs", "voyagers", "collected" },
  entry = "turn",

  -- The map's side comes from the seed unless --size forces one.
  size = function(game)
    return game.random(MIN_SIZE, MAX_SIZE)
  end,

  setup = function(game)
    n = game.size()
    if n < MIN_SIZE or n > MAX_SIZE then
      error("orbs is played on maps of " .. MIN_SIZE .. "×" .. MIN_SIZE .. " to " .. MAX_SIZE .. "×" .. MAX_SIZE .. " (got " .. n .. ")")
    end
    if game.teams() ~= 2 then error("orbs is played by two teams (got " .. game.teams() .. ")") end
    local pr, pc = generate(game)
    -- The map never changes: every unit's view shares one copy of it.
    game.constant(passable)
    game.constant(orbs)
    for r = 0, n - 1 do
      for c = 0, n - 1 do ground(game, r, c) end
    end
    place(game, 0, PLANET, pr, pc)
    place(game, 1, PLANET, mirror(pr, pc))
    score(game)
  end,

  -- One call at a time: the next unit of the queue with time on its clock.
  -- After the last one the teams collect, and the round is over.
  turns = function(game)
    if started ~= game.round() then
      started, pos = game.round(), 1
      for _, id in ipairs(queue) do
        local u = units[id]
        if u.born < started then u.clock = u.clock + CLOCK_GAIN end
      end
    end
    while pos <= #queue do
      local u = units[queue[pos]]
      pos = pos + 1
      if u.clock > 0 then
        u.turn = u.turn + 1
        current = u
        return { { team = u.team, unit = u.id, view = view(game, u), budget = CLOCK_CAP } }
      end
      u.signal = 0
    end
    collect(game)
    if game.round() >= game.rounds() then decide(game) end
    return nil
  end,

  resolve = function(game, calls, answers, used)
    local u = current
    u.clock = u.clock - used[1]
    u.signal = 0
    local a = answers[1]
    if type(a) ~= "table" then return end
    if integer(a.signal) and a.signal >= 0 and a.signal <= 65535 then u.signal = a.signal end
    if u.unit == VOYAGER and type(a.move) == "table" then
      move(game, u, a.move[1], a.move[2])
    elseif u.unit == PLANET and type(a.build) == "table" then
      build(game, u, a.build[1], a.build[2])
    end
  end,
}
