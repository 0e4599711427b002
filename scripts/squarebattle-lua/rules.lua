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

-- resolve keeps its tables from round to round instead of building tables
-- per square: an entry belongs to this round when it holds the round's
-- number, so nothing needs clearing. Cells and teams are keys from 1
-- (cell + 1, team + 1). The squares of a round are numbered from 1, acts
-- first, then newborns. Per cell: held (squares stand there this round),
-- first (the last square placed there), attacked. Per square: after (the
-- square placed in the same cell before it, or false). hit[team + 1][cell
-- + 1]: that team attacked that cell. there[team + 1]: a team is in the
-- cell being looked at (marked per square with marks). attacks and crowds
-- list the cells attacked, and those where two or more stand, in the
-- order found. The tables are read through locals in resolve: an upvalue
-- costs an instruction each time.
local round, marks = 0, 0
local held, first, after, attacked, hit, there = {}, {}, {}, {}, {}, {}
local attacks, crowds = {}, {}
local candidates = {} -- candidates[1..count]: the teams a killer is picked from

-- The lists resolve returns and the birth and death tables in them are
-- kept too (the engine copies them out when resolve returns and keeps
-- nothing); shown is how many entries each list held last round, to clear
-- what is left past this round's.
local dest, births, deaths = {}, {}, {}
local birth_tables, death_tables = {}, {}
local shown_dest, shown_births, shown_deaths, shown_standers = 0, 0, 0, 0

-- trim clears list past its n entries, given that it held shown.
local function trim(list, n, shown)
  for k = n + 1, shown do list[k] = nil end
end

-- The round being resolved, for died (resolve itself keeps them in
-- locals).
local cur_squares, cur_n, cur_next, cur_game = nil, 0, 0, nil

-- standing lists the squares standing in the cells cells[1..count] (a
-- cell no square stands in adds none), in the order they stand. The list
-- is kept from call to call: it is read before the next call.
local standers = {}
local function standing(cells, count)
  local list, m, now = standers, 0, round
  for k = 1, count do
    local c = cells[k]
    if held[c] == now then
      local i = first[c]
      while i do
        m = m + 1
        list[m] = i
        i = after[i]
      end
    end
  end
  trim(list, m, shown_standers)
  shown_standers = m
  table.sort(list)
  return list, m
end

-- kept returns pool[k], an empty table made the first time.
local function kept(pool, k)
  local t = pool[k]
  if not t then
    t = {}
    pool[k] = t
  end
  return t
end

-- died adds square i's death to deaths (nd of them so far) and returns nd.
-- The killer is picked among candidates[1..count] (ascending teams) with
-- the battle's seeded killer stream, only when there is a choice. (The
-- square and the killer are found here, not by helpers of their own: a
-- Lua call costs as much as a dozen instructions.)
local function died(nd, i, count, collision, own)
  nd = nd + 1
  local d = kept(death_tables, nd)
  if i <= cur_n then
    d.square = cur_squares[i]
  else
    d.square = cur_next + i - cur_n - 1
  end
  if count == 1 then
    d.killer = candidates[1]
  else
    d.killer = candidates[cur_game.pick(count) + 1]
  end
  d.collision = collision
  d.own = own
  deaths[nd] = d
  return nd
end

return {
  name = "SquareBattle (rules in Lua)",
  protocol = "squarebattle",
  -- resolve's acts as six lists (acts.cell[i] is act i's cell, and so
  -- on) rather than a table per act: list entries are cheaper to read.
  acts = "columns",

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
    local squares, teams_of, cells, actions, targets, children =
      acts.square, acts.team, acts.cell, acts.action, acts.target, acts.child
    local n = #cells
    cur_squares, cur_n, cur_next, cur_game = squares, n, next_id, game
    local now, teams, nb, nd = round, game.teams(), 0, 0
    local held, first, after, attacked, hit, dest, births = held, first, after, attacked, hit, dest, births
    local nattacked, ncrowded = 0, 0

    -- 1. Moves go to their target; replication places the child in the
    --    target cell; attacks mark their target. Every square of the round
    --    stands in a cell: acts in id order, then newborns (nb grows while
    --    the acts are read, so the loop's end is checked each time).
    local i = 0
    while i < n + nb do
      i = i + 1
      local to
      if i <= n then
        local action = actions[i]
        to = cells[i]
        if action ~= "wait" then
          if action == "move" then
            to = targets[i]
          elseif action == "attack" then
            local target, t = targets[i] + 1, teams_of[i] + 1
            local by = hit[t]
            if not by then
              by = {}
              hit[t] = by
            end
            if attacked[target] ~= now then
              attacked[target] = now
              nattacked = nattacked + 1
              attacks[nattacked] = target
            end
            by[target] = now
          elseif action == "replicate" then
            nb = nb + 1
            local b = kept(birth_tables, nb)
            b.parent = squares[i]
            b.cell = targets[i]
            b.class = children[i]
            b.team = teams_of[i]
            births[nb] = b
          end
        end
        dest[i] = to
      else
        to = births[i - n].cell
      end
      local c = to + 1
      if held[c] ~= now then
        held[c] = now
        first[c] = i
        after[i] = false
      else
        local f = first[c]
        if after[f] == false then
          ncrowded = ncrowded + 1
          crowds[ncrowded] = c
        end
        after[i] = f
        first[c] = i
      end
    end
    trim(dest, n, shown_dest)
    trim(births, nb, shown_births)
    shown_dest, shown_births = n, nb

    -- 2. Every square standing in an attacked cell dies, own team included;
    --    the killer is one of the teams that attacked the cell.
    if nattacked > 0 then
      local list, m = standing(attacks, nattacked)
      for k = 1, m do
        local v, c, count = list[k], 0, 0
        if v <= n then c = dest[v] + 1 else c = births[v - n].cell + 1 end
        for t = 1, teams do
          local by = hit[t]
          if by and by[c] == now then
            count = count + 1
            candidates[count] = t - 1
          end
        end
        nd = died(nd, v, count, false, false)
      end
    end

    -- 3. Every cell holding two or more of the remaining squares kills them
    --    all; the killer is one of the other teams in the cell. (A cell is
    --    attacked or not: its squares all died in 2, or none did.)
    if ncrowded > 0 then
      local list, m = standing(crowds, ncrowded)
      for k = 1, m do
        local v, c, mine = list[k], 0, 0
        if v <= n then
          c, mine = dest[v] + 1, teams_of[v]
        else
          local b = births[v - n]
          c, mine = b.cell + 1, b.team
        end
        if attacked[c] ~= now then
          marks = marks + 1
          local mark, own = marks, false
          local j = first[c]
          while j do
            if j ~= v then
              local t
              if j <= n then t = teams_of[j] else t = births[j - n].team end
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
          nd = died(nd, v, count, true, own)
        end
      end
    end
    cur_squares, cur_game = nil, nil -- the engine's, for this round only
    trim(deaths, nd, shown_deaths)
    shown_deaths = nd
    return dest, births, deaths
  end,

  -- The battle ends when one team or none is left, or at the round limit.
  over = function(game, squares)
    local alive = 0
    for t = 1, #squares do
      if squares[t] > 0 then alive = alive + 1 end
    end
    if #squares >= 2 and alive <= 1 then return true end
    return alive == 0 or game.round() >= game.rounds()
  end,
}
