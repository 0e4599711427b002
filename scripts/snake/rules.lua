-- Snake: battlesnake as a SquareBattle rule mod.
--
-- Snakes crawl on a walled board (no wrap) and race for one pellet. Every
-- tick each living snake's player is called once, all at the same time, and
-- answers "up", "down", "left" or "right" (or the seed's letters u, d, l,
-- r). Anything else, a timeout or an error keeps the snake's direction;
-- every snake heads right when a game starts.
--
-- Coordinates: x is the column, y the row, (0, 0) the bottom left corner;
-- "up" is y + 1. Teams are numbered from 0; a snake is a team.
--
-- THE MOVE (one tick), simultaneous:
--   1. Every living snake moves: its head steps one cell in its direction.
--      Its tail cell is left behind unless the snake is growing: a snake
--      with growth pending keeps its tail this tick (one cell of growth is
--      used up). Whether a tail moves is known before the tick: eating a
--      pellet this tick only makes the tail stay from the next tick on.
--   2. Then, with every snake in its new place, a snake dies when
--        a. its head left the board (walls kill), or
--        b. it reversed into its neck (its answer is the opposite of its
--           direction; only snakes of length 2 or more have a neck), or
--        c. its head is on a body cell (any cell of any snake but a head,
--           its own included) as the bodies stand after step 1: a tail that
--           moved away frees its cell, a growing snake's tail does not, and
--           the bodies of snakes that die this tick still count, or
--        d. its head shares its cell with another head: all those heads die.
--   3. A head alone on the pellet eats it: +50 and GROWTH cells to grow.
--      Heads that meet on the pellet die and the pellet is eaten without
--      points. An eaten pellet comes back at once at a free cell picked
--      with the battle's seeded random stream (free cells counted row by
--      row from the bottom left, after the dead are removed).
--   4. Every snake still alive scores +1 for the tick.
--
-- A GAME ends when at most one snake is alive (none, in a solo game). The
-- last snake alive wins the game and scores +1000. A game in which the
-- last snakes die together (a tie), or in which PATIENCE ticks pass
-- without a pellet being eaten, is a wash: it counts for nothing, its
-- points are dropped, and a new game starts.
--
-- A MATCH is one battle: best-of-GAMES counted games for two or more
-- snakes (it ends as soon as a snake has won more than half of GAMES, or
-- when GAMES games counted); SOLO_GAMES counted games for one snake. Each
-- snake's score is the sum of its counted games' points; the match winner
-- (most games won, then most points; still tied: none) gets +2500. A solo
-- snake wins the battle but gets no survivor or match bonus. At the round
-- limit the game being played is dropped and the match is decided as it
-- stands.

-- The game's defaults (the seed leaves the sizes to its config file).
-- The options' defaults; a battle reads the configured values in setup
-- (options.start_length in squarebattle.yaml, SQUAREBATTLE_OPTIONS_GROWTH,
-- --option games=9 ...).
local START_LENGTH = 3 -- cells of a snake when a game starts
local GROWTH = 1       -- cells a snake grows per pellet
local PATIENCE = 250   -- ticks without a pellet eaten before a game is a wash
local GAMES = 39       -- a match is best-of-GAMES (the seed's king of the hill)
local SOLO_GAMES = 10  -- a solo match is SOLO_GAMES games (the seed's solo)

local SURVIVOR, PELLET, TICK, MATCH = 1000, 50, 1, 2500

local MOVES = { up = { 0, 1 }, down = { 0, -1 }, left = { -1, 0 }, right = { 1, 0 } }
local LETTERS = { u = "up", d = "down", l = "left", r = "right" }
local OPPOSITE = { up = "down", down = "up", left = "right", right = "left" }

local size, teams = 0, 0
local snakes = {}   -- snakes[t+1] = { body = { {x, y}, ... } head first, dir, grow, alive, pellets, ticks }
local banked = {}   -- banked[t+1] = { score, wins, pellets, ticks } over counted games
local pellet = nil  -- { x, y } or nil when the board is full
local tick, quiet = 0, 0 -- ticks of this game; ticks since a pellet was eaten
local game_no, counted = 1, 0
local asked, over = 0, false

local function index(x, y) return y * size + x + 1 end

-- occupied marks every cell of every living snake.
local function occupied()
  local occ = {}
  for _, s in ipairs(snakes) do
    if s.alive then
      for _, p in ipairs(s.body) do occ[index(p[1], p[2])] = true end
    end
  end
  return occ
end

local function place_pellet(game)
  local occ, free = occupied(), {}
  for y = 0, size - 1 do
    for x = 0, size - 1 do
      if not occ[index(x, y)] then free[#free + 1] = { x, y } end
    end
  end
  pellet = nil
  if #free > 0 then pellet = free[game.random(#free)] end
  if pellet then game.set(pellet[2], pellet[1], nil, "item") end
end

local function draw_snake(game, t, s)
  for i, p in ipairs(s.body) do
    if i == 1 then game.set(p[2], p[1], t - 1, "unit", 1) else game.set(p[2], p[1], t - 1, "trail") end
  end
end

local function scores(game)
  for t, s in ipairs(snakes) do
    local b = banked[t]
    game.score(t - 1, "score", b.score + s.pellets * PELLET + s.ticks * TICK)
    game.score(t - 1, "games", b.wins)
    game.score(t - 1, "pellets", b.pellets + s.pellets)
    game.score(t - 1, "ticks", b.ticks + s.ticks)
    game.score(t - 1, "length", s.alive and #s.body or 0)
  end
end

-- layout starts a game: snake t (from 0) lies in row (t+1)*size/(teams+1),
-- head at column START_LENGTH, body to its left, heading right.
local function layout(game)
  for y = 0, size - 1 do
    for x = 0, size - 1 do game.set(y, x) end
  end
  for t = 1, teams do
    local y = (t * size - (t * size) % (teams + 1)) / (teams + 1)
    local body = {}
    for i = 1, START_LENGTH do body[i] = { START_LENGTH - i + 1, y } end
    snakes[t] = { body = body, dir = "right", grow = 0, alive = true, pellets = 0, ticks = 0 }
    draw_snake(game, t, snakes[t])
  end
  tick, quiet = 0, 0
  place_pellet(game)
  scores(game)
end

local function finish_match(game)
  for _, s in ipairs(snakes) do s.pellets, s.ticks = 0, 0 end
  local winner = nil
  if teams == 1 then
    winner = 0
  else
    local best, tied = nil, false
    for t = 1, teams do
      local b = banked[t]
      if not best or b.wins > banked[best].wins or (b.wins == banked[best].wins and b.score > banked[best].score) then
        best, tied = t, false
      elseif b.wins == banked[best].wins and b.score == banked[best].score then
        tied = true
      end
    end
    if not tied then
      banked[best].score = banked[best].score + MATCH
      winner = best - 1
    end
  end
  scores(game)
  over = true
  game.finish(winner)
end

-- end_game banks the game's points when it counts (survivor: the team
-- index from 1 of the last snake alive, or nil) and starts the next game
-- or ends the match.
local function end_game(game, counts, survivor)
  if counts then
    counted = counted + 1
    for t, s in ipairs(snakes) do
      local b = banked[t]
      b.score = b.score + s.pellets * PELLET + s.ticks * TICK
      b.pellets, b.ticks = b.pellets + s.pellets, b.ticks + s.ticks
    end
    if survivor then
      banked[survivor].score = banked[survivor].score + SURVIVOR
      banked[survivor].wins = banked[survivor].wins + 1
    end
  end
  local decided
  if teams == 1 then
    decided = counted >= SOLO_GAMES
  else
    decided = counted >= GAMES
    for t = 1, teams do
      if banked[t].wins * 2 > GAMES then decided = true end
    end
  end
  if decided then
    finish_match(game)
  else
    game_no = game_no + 1
    layout(game)
  end
end

return {
  name = "Snake",
  -- score: points of the counted games plus the match bonus (what the
  -- seed's solo and king-of-the-hill sum); games: games won; pellets and
  -- ticks: eaten and survived in counted games; length: the snake now.
  columns = { "score", "games", "pellets", "ticks", "length" },
  entry = "move",
  options = {
    start_length = START_LENGTH, growth = GROWTH, patience = PATIENCE,
    games = GAMES, solo_games = SOLO_GAMES,
  },

  setup = function(game)
    START_LENGTH, GROWTH, PATIENCE = game.option("start_length"), game.option("growth"), game.option("patience")
    GAMES, SOLO_GAMES = game.option("games"), game.option("solo_games")
    for name, v in pairs({ START_LENGTH = START_LENGTH, GROWTH = GROWTH, PATIENCE = PATIENCE, GAMES = GAMES, SOLO_GAMES = SOLO_GAMES }) do
      if v ~= math.floor(v) then error("snake: options." .. name:lower() .. " must be a whole number (got " .. v .. ")") end
    end
    size, teams = game.size(), game.teams()
    if game.wrap() then error("snake is played with walls (arena.wrap: false)") end
    if START_LENGTH < 1 or GROWTH < 0 or PATIENCE < 1 or GAMES < 1 or SOLO_GAMES < 1 then
      error("snake: options start_length, patience, games and solo_games must be at least 1, growth at least 0")
    end
    if START_LENGTH + 2 > size or teams + 1 > size then
      error("snake: a " .. size .. "×" .. size .. " board is too small for " .. teams .. " snakes of length " .. START_LENGTH)
    end
    for t = 1, teams do banked[t] = { score = 0, wins = 0, pellets = 0, ticks = 0 } end
    layout(game)
  end,

  -- One call per living snake per tick, all at once. The view is the whole
  -- game: every snake's body (head first), direction and pending growth.
  turns = function(game)
    if over or asked == game.round() then return nil end
    asked = game.round()
    local all = {}
    for t, s in ipairs(snakes) do
      local body = {}
      if s.alive then
        for i, p in ipairs(s.body) do body[i] = { x = p[1], y = p[2] } end
      end
      all[t] = { team = t - 1, alive = s.alive, dir = s.dir, grow = s.grow, body = body }
    end
    local view = {
      size = size, round = game.round(), tick = tick + 1, game = game_no, games = teams == 1 and SOLO_GAMES or GAMES,
      patience = PATIENCE, quiet = quiet, growth = GROWTH, snakes = all,
      pellet = pellet and { x = pellet[1], y = pellet[2] },
    }
    local calls = {}
    for t, s in ipairs(snakes) do
      if s.alive then
        local v = {}
        for k, val in pairs(view) do v[k] = val end
        v.me = t - 1
        calls[#calls + 1] = { team = t - 1, view = v }
      end
    end
    return calls
  end,

  resolve = function(game, calls, answers)
    local moving = {} -- moving[t] = answer index, for the snakes alive at the start
    for i, call in ipairs(calls) do moving[call.team + 1] = i end
    local heads, dead = {}, {}
    -- 1. Every snake moves.
    for t, s in ipairs(snakes) do
      local i = moving[t]
      if i then
        local a = answers[i]
        if type(a) == "string" then a = LETTERS[a] or a end
        local d = s.dir
        if type(a) == "string" and MOVES[a] then d = a end
        if #s.body >= 2 and d == OPPOSITE[s.dir] then dead[t] = true end -- 2b
        s.dir = d
        local h = s.body[1]
        local nx, ny = h[1] + MOVES[d][1], h[2] + MOVES[d][2]
        for _, p in ipairs(s.body) do game.set(p[2], p[1]) end
        local body = { { nx, ny } }
        local keep = #s.body
        if s.grow > 0 then s.grow = s.grow - 1 else keep = keep - 1 end
        for k = 1, keep do body[k + 1] = s.body[k] end
        s.body = body
        heads[t] = { nx, ny }
      end
    end
    -- 2. Judge every head against the board, the bodies and the heads.
    local bodies, at = {}, {}
    for t, h in pairs(heads) do
      for k = 2, #snakes[t].body do local p = snakes[t].body[k]; bodies[index(p[1], p[2])] = true end
    end
    for t = 1, teams do
      local h = heads[t]
      if h then
        if h[1] < 0 or h[1] >= size or h[2] < 0 or h[2] >= size then
          dead[t] = true -- 2a
        else
          local c = index(h[1], h[2])
          if bodies[c] then dead[t] = true end -- 2c
          if at[c] then
            dead[t], dead[at[c]] = true, true -- 2d
          else
            at[c] = t
          end
        end
      end
    end
    -- 3. The pellet.
    local eaten = false
    if pellet then
      local c = index(pellet[1], pellet[2])
      local t = at[c]
      if t then
        eaten = true
        game.set(pellet[2], pellet[1])
        if not dead[t] then
          snakes[t].pellets = snakes[t].pellets + 1
          snakes[t].grow = snakes[t].grow + GROWTH
        end
      end
    end
    -- 4. The dead leave the board; the living score the tick.
    local alive, last = 0, nil
    for t, s in ipairs(snakes) do
      if heads[t] then
        if dead[t] then
          s.alive = false
        else
          s.ticks = s.ticks + 1
        end
      end
      if s.alive then
        alive, last = alive + 1, t
        draw_snake(game, t, s)
      end
    end
    tick = tick + 1
    if eaten then
      quiet = 0
      place_pellet(game)
    else
      quiet = quiet + 1
    end
    scores(game)
    if teams == 1 and alive == 0 then
      end_game(game, true, nil)
    elseif teams > 1 and alive == 1 then
      end_game(game, true, last)
    elseif teams > 1 and alive == 0 then
      end_game(game, false, nil) -- the last snakes died together: a wash
    elseif quiet >= PATIENCE then
      end_game(game, false, nil) -- no pellet for PATIENCE ticks: a wash
    end
    if not over and game.round() >= game.rounds() then
      finish_match(game) -- the round limit: the game being played is dropped
    end
  end,
}
