-- SquareBattle's rules, written in Lua through the rule-mod API.
--
-- The built-in Go rules are the reference: a test plays the same players
-- and seeds under both and requires identical battles, round for round.
-- This script keeps SquareBattle's players ("protocol = squarebattle": the
-- engine still asks every square for its intent, handles replication's
-- initial data and the eliminated hooks) and decides everything else:
-- where the first squares go, what a round's intents do, and the end.
--
-- Cells are numbered row * size + column, row 0 at the bottom. The engine
-- has already turned faults, busy squares and moves beyond a wall into
-- waits, and found each action's target cell.

-- resolve keeps its working tables from round to round instead of building
-- tables per square: an entry belongs to this round when it holds the
-- round's number, so nothing needs clearing. Cells and teams are keys from
-- 1 (cell + 1, team + 1). The squares of a round are numbered from 1, acts
-- first, then newborns. Per square: cell_of, dead, and after (the next
-- square in the same cell). Per cell: attacked, held (squares standing
-- there this round), crowd (how many), first. hit[team + 1][cell + 1]:
-- that team attacked that cell. there[team + 1]: a team is in the cell
-- being looked at (marked per square with marks). The tables are read
-- through locals in resolve: an upvalue costs an instruction each time.
local round, marks = 0, 0
local cell_of, dead, after = {}, {}, {}
local attacked, held, crowd, first, hit, there = {}, {}, {}, {}, {}, {}
local crowds = {}     -- crowds[1..crowded]: the cells where two or more stand
-- The birth and death tables resolve returns are kept too (the engine reads
-- them when resolve returns and keeps nothing): the k-th birth or death of
-- a round is the k-th table here, its fields set afresh.
local birth_tables, death_tables = {}, {}

local function birth(births, parent, cell, class, team)
  local k = #births + 1
  local b = birth_tables[k]
  if b then
    b.parent, b.cell, b.class, b.team = parent, cell, class, team
  else
    b = { parent = parent, cell = cell, class = class, team = team }
    birth_tables[k] = b
  end
  births[k] = b
end

local function death(deaths, square, killer, collision, own)
  local k = #deaths + 1
  local d = death_tables[k]
  if d then
    d.square, d.killer, d.collision, d.own = square, killer, collision, own
  else
    d = { square = square, killer = killer, collision = collision, own = own }
    death_tables[k] = d
  end
  deaths[k] = d
end
local candidates = {} -- candidates[1..count]: the teams a killer is picked from

-- killer picks the killer among candidates[1..count] (ascending teams)
-- with the battle's seeded killer stream, only when there is a choice.
local function killer(game, count)
  if count == 1 then return candidates[1] end
  return candidates[game.pick(count) + 1]
end

return {
  name = "SquareBattle (rules in Lua)",
  protocol = "squarebattle",

  -- One square per team, teams in order, each on a random empty cell: the
  -- placement stream picks an index into the list of empty cells, and the
  -- picked cell is replaced by the last one.
  place = function(game)
    local empty, cells = {}, {}
    for c = 0, game.size() * game.size() - 1 do empty[#empty + 1] = c end
    for t = 1, game.teams() do
      local k = game.placement(#empty) + 1
      cells[t] = empty[k]
      empty[k] = empty[#empty]
      empty[#empty] = nil
    end
    return cells
  end,

  -- resolve returns where every square ends the round, the births and the
  -- deaths (in the order they happen).
  resolve = function(game, acts, next_id)
    round = round + 1
    local now, teams = round, game.teams()
    local cell_of, dead, after, attacked, held, crowd, first, hit = cell_of, dead, after, attacked, held, crowd, first, hit
    local dest, births, deaths = {}, {}, {}
    local n = #acts

    -- 1. Moves go to their target; replication places the child in the
    --    target cell; attacks mark their target. Every square of the round
    --    stands somewhere: acts in id order, then newborns.
    for i = 1, n do
      local a = acts[i]
      local action, to = a.action, a.cell
      if action == "move" then
        to = a.target
      elseif action == "attack" then
        local target, team = a.target + 1, a.team + 1
        local by = hit[team]
        if not by then
          by = {}
          hit[team] = by
        end
        attacked[target], by[target] = now, now
      elseif action == "replicate" then
        birth(births, a.square, a.target, a.child, a.team)
      end
      dest[i], cell_of[i] = to, to
    end
    local m = n
    for _, b in ipairs(births) do
      m = m + 1
      cell_of[m] = b.cell
    end
    -- the id and the team of square i
    local function square(i)
      if i <= n then return acts[i].square end
      return next_id + i - n - 1
    end
    local function team_of(i)
      if i <= n then return acts[i].team end
      return births[i - n].team
    end

    -- 2. Every square standing in an attacked cell dies, own team included;
    --    the killer is one of the teams that attacked the cell. The others
    --    are chained by cell: first[c], then after[i] until false; the
    --    cells where a second one stands are listed in crowded.
    local crowded = 0
    for i = 1, m do
      local c = cell_of[i] + 1
      if attacked[c] == now then
        dead[i] = now
        local count = 0
        for t = 1, teams do
          local by = hit[t]
          if by and by[c] == now then
            count = count + 1
            candidates[count] = t - 1
          end
        end
        death(deaths, square(i), killer(game, count), false, false)
      elseif held[c] ~= now then
        held[c], crowd[c], after[i], first[c] = now, 1, false, i
      else
        if crowd[c] == 1 then
          crowded = crowded + 1
          crowds[crowded] = c
        end
        crowd[c], after[i], first[c] = crowd[c] + 1, first[c], i
      end
    end
    if crowded == 0 then return dest, births, deaths end

    -- 3. Every cell holding two or more of the remaining squares kills them
    --    all, in the order they stand; the killer is one of the other teams
    --    in the cell.
    local victims = {}
    for k = 1, crowded do
      local j = first[crowds[k]]
      while j do
        victims[#victims + 1] = j
        j = after[j]
      end
    end
    table.sort(victims)
    for _, i in ipairs(victims) do
      marks = marks + 1
      local mark, mine, own = marks, team_of(i), false
      local j = first[cell_of[i] + 1]
      while j do
        if j ~= i then
          local t = team_of(j)
          there[t + 1] = mark
          if t == mine then own = true end
        end
        j = after[j]
      end
      local count = 0
      for t = 1, teams do
        if there[t] == mark then
          count = count + 1
          candidates[count] = t - 1
        end
      end
      death(deaths, square(i), killer(game, count), true, own)
    end
    return dest, births, deaths
  end,

  -- The battle ends when one team or none is left, or at the round limit.
  over = function(game, squares)
    local alive = 0
    for _, n in ipairs(squares) do
      if n > 0 then alive = alive + 1 end
    end
    if #squares >= 2 and alive <= 1 then return true end
    return alive == 0 or game.round() >= game.rounds()
  end,
}
