-- Snake: battlesnake as a SquareBattle rule mod.
--
-- Snakes crawl on a walled board (no wrap) and race for one pellet. Every
-- tick each living snake's player is called once, all at the same time, and
-- answers "up", "down", "left" or "right" (or the seed's letters u, d, l,
-- r). No answer (nil: a timeout, an error) keeps the snake's direction;
-- any other answer is invalid: the snake stays where it is, and so dies
-- on its own head. Every snake heads right when a game starts.
--
-- Where the seed's README speaks these rules follow it; where it is silent
-- they follow the original program (dbaileychess/battlesnake, main.lua and
-- snake.lua). docs/modding.md, "Snake: differences from the original",
-- lists every place where they do not, and why.
--
-- Coordinates: x is the column, y the row, (0, 0) the bottom left corner;
-- "up" is y + 1. Teams are numbered from 0; a snake is a team.
--
-- THE START of every game: the pellet on a random free cell, then each
-- snake in team order: its head on a random cell with its body hanging
-- straight down from it (START_LENGTH cells, all on the board and free;
-- classic: START_LENGTH + 1, as the original's code builds), heading
-- right. The random draws come from the battle's seeded stream.
--
-- THE MOVE (one tick). Every living snake targets the cell next to its
-- head in its direction (its own head, after an invalid answer). Then,
-- by default all at once, a snake dies when its target
--   a. is off the board (walls kill), or
--   b. was a snake's cell when the tick began (any snake's, its own tail
--      and neck included; bodies of snakes dying this tick included), or
--   c. is the target of another snake too: all of them die.
-- A lone surviving head on the pellet eats it: +50 and GROWTH cells to
-- grow, starting at once. Every surviving snake steps: the head moves to
-- the target; the tail stays when growth is pending (one cell of it is
-- used), else it leaves. Snakes that meet on the pellet die and the pellet
-- is eaten without points. An eaten pellet comes back at once on a random
-- free cell (free cells counted row by row from the bottom left, after the
-- dead are removed). Every snake that took part in the tick, including
-- one that died on it, scores +1 for it.
--
-- CLASSIC (option classic = true) moves the snakes as the original does,
-- one after another: the snakes sharing a target die together as above;
-- then each other snake in the game's order (drawn from the seeded stream
-- when the game starts) eats the pellet if its target holds it, dies if
-- its target is off the board or holds a snake as the ones before it left
-- the board (a snake that died before it has left), else steps; last, the
-- snakes that shared a target leave the board.
--
-- A GAME ends when at most one snake is alive (none, in a solo game), or,
-- as a wash, when PATIENCE ticks pass without a pellet eaten. The last
-- snake alive scores +1000 (last man standing); when the last snakes die
-- together, the one of them that ate the most pellets this game gets it,
-- and a tie for the most makes the game a wash. (Classic: whenever two or
-- more snakes die on a game's last tick, the +1000 goes to the one of them
-- with the most pellets even if a snake survives, as in the original.)
-- A game's score is pellets·50 + ticks + bonus; the highest score wins the
-- game (solo: the snake always). A tie for the highest is a wash (classic:
-- the lowest team wins it). A wash counts for nothing: its points are
-- dropped and a new game starts.
--
-- A MATCH is one battle. Two or more snakes play best-of-GAMES: it ends as
-- soon as a snake has won ceil(GAMES/2) games, or when GAMES games counted
-- (classic: only the former). One snake plays SOLO_GAMES counted games
-- (classic: ceil(GAMES/2)). Each snake's score is the sum of its counted
-- games' points; the match winner (the one with ceil(GAMES/2) wins, else
-- most games won, then most points; still tied: none) gets +2500 and wins
-- the battle. A solo snake wins the battle, with no match bonus (classic:
-- with it). At the round limit the game being played is dropped and the
-- match is decided as it stands.

-- The options' defaults (the original's config.lua, but for GAMES, the
-- seed's king of the hill, and SOLO_GAMES, the seed's solo); a battle reads
-- the configured values in setup (options.start_length in
-- squarebattle.yaml, SQUAREBATTLE_OPTIONS_GROWTH, --option games=9 ...).
local START_LENGTH = 5 -- cells of a snake when a game starts
local GROWTH = 3       -- cells a snake grows per pellet
local PATIENCE = 5000  -- ticks without a pellet eaten before a game is a wash
local GAMES = 39       -- a match is best-of-GAMES (the seed's king of the hill)
local SOLO_GAMES = 10  -- a solo match is SOLO_GAMES games (the seed's solo)
local CLASSIC = false  -- move one snake after another, as the original does

-- LAYOUT replaces the random start of every game with a fixed one, for
-- hand-made situations (the tests set it): { pellet = { x, y },
-- snakes = { { {x, y}, ... head first }, ... per team }, order = { team
-- numbers from 1, the classic order; team order when left out } }. nil:
-- the random start.
local LAYOUT = nil

-- The seed's points.
local SURVIVOR = 1000 -- last man standing
local PELLET = 50     -- per pellet eaten
local TICK = 1        -- per tick alive
local MATCH = 2500    -- match winner

local MOVES = { up = { 0, 1 }, down = { 0, -1 }, left = { -1, 0 }, right = { 1, 0 } }
local LETTERS = { u = "up", d = "down", l = "left", r = "right" }

local size, teams = 0, 0
local snakes = {}   -- snakes[t] = { body = { {x =, y =}, ... } head first, dir, grow, alive, pellets, ticks }
local banked = {}   -- banked[t] = { score, wins, pellets, ticks } over counted games
local pellet = nil  -- { x =, y = } or nil when the board is full
local order = {}    -- classic: the teams (from 1) in the order they move this game
local tick, quiet = 0, 0 -- ticks of this game; ticks since a pellet was eaten
local game_no, counted = 1, 0
local asked, over = 0, false
-- overlap: a LAYOUT put two snake cells on one cell, so a tick redraws every
-- living snake whole (see resolve).
local overlap = false

-- A cell is a table { x =, y = } that is never changed once made: the
-- snakes' bodies and the pellet show in the players' view as they are.
-- There is one table per cell of the board, made the first time it is
-- needed and declared unchanging (game.constant), so the engine copies it
-- out of the rules once and each player's VM builds it once.
local cells, constant = {}, nil

local function index(x, y) return y * size + x + 1 end
local function on_board(x, y) return x >= 0 and x < size and y >= 0 and y < size end

local function cell(x, y)
  if not on_board(x, y) then return { x = x, y = y } end -- only a LAYOUT's
  local k = y * size + x + 1
  local c = cells[k]
  if not c then
    c = constant({ x = x, y = y })
    cells[k] = c
  end
  return c
end

-- to_win is the games a snake must win to take a best-of-GAMES match.
local function to_win() return (GAMES + GAMES % 2) / 2 end

-- occ is kept from call to call: a cell index(x, y) is occupied when
-- occ[index(x, y)] holds the number the last occupied() returned, so it is
-- never cleared and, after the first tick, never grows.
local occ, marked = {}, 0

-- occupied marks every cell of every living snake in occ and returns the
-- mark.
local function occupied()
  marked = marked + 1
  local m = marked
  for t = 1, #snakes do
    local s = snakes[t]
    if s.alive then
      local body = s.body
      for i = 1, #body do
        local p = body[i]
        occ[p.y * size + p.x + 1] = m
      end
    end
  end
  return m
end

-- place_pellet puts the pellet on a random free cell: the free cells are
-- counted row by row from the bottom left and one is drawn by its number.
local function place_pellet(game)
  local m, free, cells = occupied(), 0, size * size
  for c = 1, cells do
    if occ[c] ~= m then free = free + 1 end
  end
  pellet = nil
  if free > 0 then
    local k = game.random(free)
    for c = 1, cells do
      if occ[c] ~= m then
        k = k - 1
        if k == 0 then
          local x = (c - 1) % size
          pellet = cell(x, (c - 1 - x) / size)
          break
        end
      end
    end
  end
  if pellet then game.set(pellet.y, pellet.x, nil, "item") end
end

local function draw_snake(game, t, s)
  for i, p in ipairs(s.body) do
    if i == 1 then game.set(p.y, p.x, t - 1, "unit", 1) else game.set(p.y, p.x, t - 1, "trail") end
  end
end

-- game_points is what snake t has earned in the game being played, bonus
-- aside.
local function game_points(t)
  local s = snakes[t]
  return s.pellets * PELLET + s.ticks * TICK
end

local function scores(game)
  for t, s in ipairs(snakes) do
    local b = banked[t]
    game.score(t - 1, "score", b.score + game_points(t))
    game.score(t - 1, "games", b.wins)
    game.score(t - 1, "pellets", b.pellets + s.pellets)
    game.score(t - 1, "ticks", b.ticks + s.ticks)
    game.score(t - 1, "length", s.alive and #s.body or 0)
  end
end

-- place_snake draws the head of a snake of n cells hanging straight down
-- from it among the cells where all n are on the board and free. Setup
-- checks n <= size and teams < size, so a column no other snake nor the
-- pellet touches always exists.
local function place_snake(game, n)
  local m, heads = occupied(), {} -- heads: the possible heads' x * size + y
  if pellet then occ[index(pellet.x, pellet.y)] = m end
  for x = 0, size - 1 do
    local run = 0 -- free cells in a row up to (x, y) in this column
    for y = 0, size - 1 do
      if occ[index(x, y)] == m then run = 0 else run = run + 1 end
      if run >= n then heads[#heads + 1] = x * size + y end
    end
  end
  if #heads == 0 then error("snake: no room for a snake of length " .. n) end
  local h = heads[game.random(#heads)]
  local hy = h % size
  local hx = (h - hy) / size
  local body = {}
  for i = 1, n do body[i] = cell(hx, hy - i + 1) end
  return body
end

-- layout starts a game: a new pellet, then the snakes (see THE START).
local function layout(game)
  for y = 0, size - 1 do
    for x = 0, size - 1 do game.set(y, x) end
  end
  for t = 1, teams do
    snakes[t] = { body = {}, dir = "right", grow = 0, alive = false, pellets = 0, ticks = 0 }
  end
  tick, quiet = 0, 0
  if LAYOUT then
    pellet = LAYOUT.pellet and cell(LAYOUT.pellet[1], LAYOUT.pellet[2])
    if pellet then game.set(pellet.y, pellet.x, nil, "item") end
  else
    place_pellet(game)
  end
  for t = 1, teams do
    local s = snakes[t]
    if LAYOUT then
      for i, p in ipairs(LAYOUT.snakes[t]) do s.body[i] = cell(p[1], p[2]) end
    else
      s.body = place_snake(game, CLASSIC and START_LENGTH + 1 or START_LENGTH)
    end
    s.alive = true
    draw_snake(game, t, s)
  end
  overlap = false
  if LAYOUT then
    local held = {}
    for _, s in ipairs(snakes) do
      for _, p in ipairs(s.body) do
        if held[index(p.x, p.y)] then overlap = true end
        held[index(p.x, p.y)] = true
      end
    end
  end
  order = {}
  if CLASSIC then
    if LAYOUT then
      for t = 1, teams do order[t] = LAYOUT.order and LAYOUT.order[t] or t end
    else
      for t = 1, teams do -- a seeded shuffle
        local k = game.random(t)
        order[t] = order[k]
        order[k] = t
      end
    end
  end
  scores(game)
end

-- top returns the one of the teams in list (from 1) whose value is the
-- highest (value returns one number, or two compared in turn) and whether
-- another team shares that value; the first in list wins a tie.
local function top(list, value)
  local best, b1, b2, tied = nil, 0, 0, false
  for _, t in ipairs(list) do
    local v1, v2 = value(t)
    v2 = v2 or 0
    if not best or v1 > b1 or (v1 == b1 and v2 > b2) then
      best, b1, b2, tied = t, v1, v2, false
    elseif v1 == b1 and v2 == b2 then
      tied = true
    end
  end
  return best, tied
end

local function all_teams()
  local list = {}
  for t = 1, teams do list[t] = t end
  return list
end

-- match_winner is the team (from 1) that won the match as it stands, or
-- nil on a tie.
local function match_winner()
  for t = 1, teams do
    if banked[t].wins >= to_win() then return t end
  end
  local best, tied = top(all_teams(), function(t) return banked[t].wins, banked[t].score end)
  if tied then return nil end
  return best
end

local function finish_match(game)
  for _, s in ipairs(snakes) do s.pellets, s.ticks = 0, 0 end
  local winner = 1
  if teams > 1 then winner = match_winner() end
  if winner and (teams > 1 or CLASSIC) then
    banked[winner].score = banked[winner].score + MATCH
  end
  scores(game)
  over = true
  game.finish(winner and winner - 1)
end

local function decided()
  if teams == 1 then
    if CLASSIC then return banked[1].wins >= to_win() end
    return counted >= SOLO_GAMES
  end
  for t = 1, teams do
    if banked[t].wins >= to_win() then return true end
  end
  return not CLASSIC and counted >= GAMES
end

-- game_winner is the team (from 1) with the game's highest score (bonus:
-- the team that earned the last-man bonus, or nil), or nil when the
-- highest is shared and the game is a wash.
local function game_winner(bonus)
  local best, tied = top(all_teams(), function(t)
    if t == bonus then return game_points(t) + SURVIVOR end
    return game_points(t)
  end)
  if tied and not CLASSIC then return nil end
  return best
end

-- end_game banks the game's points unless it is a wash (bonus: the team,
-- from 1, that earns the last-man bonus, or nil) and starts the next game
-- or ends the match.
local function end_game(game, wash, bonus)
  local winner = not wash and game_winner(bonus)
  if winner then
    counted = counted + 1
    for t, s in ipairs(snakes) do
      local b = banked[t]
      b.score = b.score + game_points(t)
      b.pellets, b.ticks = b.pellets + s.pellets, b.ticks + s.ticks
    end
    if bonus then banked[bonus].score = banked[bonus].score + SURVIVOR end
    banked[winner].wins = banked[winner].wins + 1
  end
  if decided() then
    finish_match(game)
  else
    game_no = game_no + 1
    layout(game)
  end
end

-- pellet_leader is the one of the teams in died (from 1) that ate the most
-- pellets this game, or nil when the most is shared.
local function pellet_leader(died)
  local best, tied = top(died, function(t) return snakes[t].pellets end)
  if tied then return nil end
  return best
end

-- step moves snake t's head to (x, y) and, unless growth is pending, takes
-- its tail away; it returns the cell the tail left, or nil.
local function step(s, x, y)
  table.insert(s.body, 1, cell(x, y))
  if s.grow > 0 then
    s.grow = s.grow - 1
    return nil
  end
  return table.remove(s.body)
end

-- eat gives snake t the pellet.
local function eat(t)
  snakes[t].pellets = snakes[t].pellets + 1
  snakes[t].grow = snakes[t].grow + GROWTH
end

-- move_together applies a tick with every snake moving at once (THE MOVE);
-- it returns whether the pellet was eaten, appends the dead to died and
-- sets left[t] to the cell snake t's tail left, if it did.
local function move_together(targets, count, died, left)
  local m, eaten = occupied(), false
  local pc = pellet and index(pellet.x, pellet.y)
  for t = 1, teams do
    local g = targets[t]
    if g then
      if not on_board(g[1], g[2]) or occ[index(g[1], g[2])] == m or count[g.key] > 1 then
        died[#died + 1] = t
        if g.key == pc then eaten = true end
      else
        if g.key == pc then eaten = true; eat(t) end
        left[t] = step(snakes[t], g[1], g[2])
      end
    end
  end
  return eaten
end

-- move_classic applies a tick the original's way (CLASSIC); it returns
-- whether the pellet was eaten and fills died and left as move_together.
local function move_classic(targets, count, died, left)
  local m, eaten = occupied(), false
  local pc = pellet and index(pellet.x, pellet.y)
  local function leave(t)
    for _, p in ipairs(snakes[t].body) do occ[index(p.x, p.y)] = false end
    died[#died + 1] = t
  end
  for _, t in ipairs(order) do
    local g = targets[t]
    if g and count[g.key] == 1 then
      local c = on_board(g[1], g[2]) and index(g[1], g[2])
      if c and c == pc then
        eaten = true
        eat(t)
      end
      if not c or occ[c] == m then
        leave(t)
      else
        occ[c] = m
        local tail = step(snakes[t], g[1], g[2])
        if tail then occ[index(tail.x, tail.y)] = false end
        left[t] = tail
      end
    end
  end
  for _, t in ipairs(order) do
    local g = targets[t]
    if g and count[g.key] > 1 then
      if g.key == pc then eaten = true end
      leave(t)
    end
  end
  return eaten
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
    games = GAMES, solo_games = SOLO_GAMES, classic = CLASSIC,
  },

  setup = function(game)
    START_LENGTH, GROWTH, PATIENCE = game.option("start_length"), game.option("growth"), game.option("patience")
    GAMES, SOLO_GAMES, CLASSIC = game.option("games"), game.option("solo_games"), game.option("classic")
    for name, v in pairs({ START_LENGTH = START_LENGTH, GROWTH = GROWTH, PATIENCE = PATIENCE, GAMES = GAMES, SOLO_GAMES = SOLO_GAMES }) do
      if v ~= math.floor(v) then error("snake: options." .. name:lower() .. " must be a whole number (got " .. v .. ")") end
    end
    size, teams = game.size(), game.teams()
    constant = game.constant
    if game.wrap() then error("snake is played with walls (arena.wrap: false)") end
    if START_LENGTH < 1 or GROWTH < 0 or PATIENCE < 1 or GAMES < 1 or SOLO_GAMES < 1 then
      error("snake: options start_length, patience, games and solo_games must be at least 1, growth at least 0")
    end
    if START_LENGTH + 1 > size or teams + 1 > size then
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
    -- The bodies are shown as they are: the engine copies the view before
    -- resolve changes them.
    local all = {}
    for t, s in ipairs(snakes) do
      all[t] = { team = t - 1, alive = s.alive, dir = s.dir, grow = s.grow, body = s.alive and s.body or {} }
    end
    local view = {
      size = size, round = game.round(), tick = tick + 1, game = game_no, games = teams == 1 and SOLO_GAMES or GAMES,
      patience = PATIENCE, quiet = quiet, growth = GROWTH, classic = CLASSIC, snakes = all,
      pellet = pellet,
    }
    if teams == 1 and CLASSIC then view.games = to_win() end
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
    -- Every snake that was called targets a cell; count[key] is how many
    -- target that cell (off-board cells have keys of their own).
    local targets, count = {}, {}
    for i, call in ipairs(calls) do
      local t = call.team + 1
      local s = snakes[t]
      local a = answers[i]
      if type(a) == "string" then a = LETTERS[a] or a end
      local h = s.body[1]
      local g = { h.x, h.y }
      if a == nil or MOVES[a] then
        if a ~= nil then s.dir = a end
        g = { h.x + MOVES[s.dir][1], h.y + MOVES[s.dir][2] }
      end
      g.key = on_board(g[1], g[2]) and index(g[1], g[2]) or (g[1] .. "," .. g[2])
      count[g.key] = (count[g.key] or 0) + 1
      targets[t] = g
    end
    local died, left = {}, {}
    local eaten
    if CLASSIC then
      eaten = move_classic(targets, count, died, left)
    else
      eaten = move_together(targets, count, died, left)
    end
    -- The board changes only where the snakes did: first the cells left
    -- (the bodies of the dead, the tails that moved on, the eaten pellet)
    -- are cleared, then the new heads are drawn and the old heads become
    -- trail. What it shows after the tick is what clearing every snake
    -- that moved and drawing the living whole would show.
    for _, t in ipairs(died) do
      for _, p in ipairs(snakes[t].body) do game.set(p.y, p.x) end
    end
    for t = 1, teams do
      local tail = left[t]
      if tail then game.set(tail.y, tail.x) end
    end
    if pellet and eaten then game.set(pellet.y, pellet.x) end
    for _, t in ipairs(died) do snakes[t].alive = false end
    -- Every snake that took part in the tick scores it, the dead included.
    local alive, last = 0, nil
    for t, s in ipairs(snakes) do
      if targets[t] then s.ticks = s.ticks + 1 end
      if s.alive then
        alive, last = alive + 1, t
        if overlap then
          draw_snake(game, t, s)
        elseif targets[t] then -- it moved: a new head, the old one is trail
          local b = s.body
          game.set(b[1].y, b[1].x, t - 1, "unit", 1)
          if b[2] then game.set(b[2].y, b[2].x, t - 1, "trail") end
        end
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
    -- The game's end: done, whether it is a wash, who earns the bonus.
    local done, wash, bonus = false, false, nil
    if teams == 1 then
      done = alive == 0
    elseif alive <= 1 and (alive == 0 or (CLASSIC and #died > 1)) then
      bonus = pellet_leader(died) -- the last snakes died together
      done, wash = true, bonus == nil
    elseif alive == 1 then
      done, bonus = true, last
    end
    if not done and quiet >= PATIENCE then
      done, wash = true, true -- no pellet for PATIENCE ticks
    end
    if done then end_game(game, wash, bonus) end
    if not over and game.round() >= game.rounds() then
      finish_match(game) -- the round limit: the game being played is dropped
    end
  end,
}
