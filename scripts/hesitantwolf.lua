-- Hesitant Wolf: a pack hunter with cold paws.
--
-- Wolves share what they learn through team_memory: a wolf that spots an
-- enemy, or dies, leaves a "howl" there (row, column, round). The rest of
-- the pack trots toward the most recent howl, taking the shortest way round
-- the torus, and roams in a slowly turning line when nothing has been heard
-- for a while. But a wolf is never quite sure of itself: when it finds an
-- enemy right next to it, it first flinches and backs off out of reach
-- (the enemy's blow lands on an empty cell); only if it meets an enemy again
-- soon after does it bite. While roaming it stops now and then to sniff the
-- air. It books every step in the team's plans so two wolves never jump
-- into the same cell, and now and then a wolf raises a cub.

-- Row and column change of one step in each direction, in view order: a
-- wolf compares them to tell which cells an enemy next to it can reach.
local DR = { 1, 1, 1, 0, -1, -1, -1, 0 }
local DC = { -1, 0, 1, 1, 1, 0, -1, -1 }

-- STEP[dr + 2][dc + 2]: the direction of a step with row change dr and
-- column change dc, each -1, 0 or 1 (0 when both are 0).
local STEP = {
  { SW, S, SE },
  { W, 0, E },
  { NW, N, NE },
}

-- Shortest signed distance from a to b around a ring of n cells.
local function delta(a, b, n)
  local d = (b - a) % n
  if d > n / 2 then
    d = d - n
  end
  return d
end

local function sign(x)
  if x > 0 then
    return 1
  elseif x < 0 then
    return -1
  end
  return 0
end

local SWAY = { 0, 1, -1 } -- straight on, then a little right, then left

local NERVE = 12      -- rounds after flinching during which a wolf bites
local HOWL_FRESH = 60 -- rounds a howl stays worth following
local HOWL_RANGE = 14 -- howls farther away than this (in steps) are ignored
local PACK_LIMIT = 80 -- no cubs once the team has this many squares

-- A free cell next to us that no enemy in view can reach, or nil.
local function retreat(view, team, row, col)
  local start = math.random(8)
  for i = 0, 7 do
    local d = turn(start, i)
    if free(d) then
      local safe = true
      for e = 1, 8 do
        local v = view[e]
        if v >= 0 and v ~= team and math.abs(DR[d] - DR[e]) <= 1 and math.abs(DC[d] - DC[e]) <= 1 then
          safe = false
          break
        end
      end
      if safe then
        return d
      end
    end
  end
  return nil
end

local function howl(row, col)
  local n = board_size()
  team_memory.howl = { row = row % n, col = col % n, round = round() }
end

---@type Player
return {
  name = "Hesitant Wolf",
  victory = "Awoooo! ...we won? Are we sure? Let's count once more.",
  defeat = "We were about to pounce. Really. Any minute now.",

  run = function(self, team, view, row, col)
    self.dir = self.dir or math.random(8)
    self.cub = self.cub or round() + 20 + math.random(0, 40)

    local enemy
    for i = 0, 7 do
      local d = turn(self.dir, i)
      local v = view[d]
      if v >= 0 and v ~= team then
        enemy = d
        break
      end
    end
    if enemy then
      howl(neighbour(row, col, enemy))
      -- A wolf that flinched a moment ago has made up its mind: bite.
      if self.flinched and round() - self.flinched <= NERVE then
        plan(enemy, "attack")
        return ATTACK, enemy
      end
      -- Otherwise it flinches: it backs off out of reach (so the enemy's
      -- blow hits an empty cell), while the pack answers the howl.
      self.flinched = round()
      local d = retreat(view, team, row, col)
      if d then
        self.dir = d
        plan(d, "move")
        return MOVE, d
      end
      plan(enemy, "attack") -- cornered: bite after all
      return ATTACK, enemy
    end

    -- Sniffing the air.
    if (self.sniff or 0) > 0 then
      self.sniff = self.sniff - 1
      return WAIT
    end
    if math.random(12) == 1 then
      self.sniff = math.random(0, 2)
      return WAIT
    end

    -- Raise a cub in a quiet corner.
    if round() >= self.cub and stats()[team].squares < PACK_LIMIT then
      local start = math.random(8)
      for i = 0, 7 do
        local d = turn(start, i)
        if free(d) then
          self.cub = round() + 100 + 100 + math.random(0, 80)
          plan(d, "birth")
          return REPLICATE, d, nil, { dir = d, cub = self.cub + math.random(0, 60) }
        end
      end
    end

    -- Follow the freshest howl, or roam.
    local d = self.dir
    local h = team_memory.howl
    if h and round() - h.round <= HOWL_FRESH then
      local n = board_size()
      local dr, dc = delta(row, h.row, n), delta(col, h.col, n)
      local far = math.max(math.abs(dr), math.abs(dc))
      if far <= 1 then
        team_memory.howl = nil -- nothing here any more
      elseif far <= HOWL_RANGE then
        d = STEP[sign(dr) + 2][sign(dc) + 2]
      end
    elseif math.random(8) == 1 then
      d = turn(d, math.random(0, 1) * 2 - 1)
    end

    -- Step cautiously: straight ahead, else a little to either side.
    for i = 1, 3 do
      local e = turn(d, SWAY[i])
      if free(e) then
        self.dir = e
        plan(e, "move")
        return MOVE, e
      end
    end
    self.dir = math.random(8)
    return WAIT
  end,

  eliminated = function(self, team, killer, row, col, killer_team)
    howl(row, col) -- avenge me!
  end,
}
