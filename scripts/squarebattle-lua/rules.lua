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
-- nothing); shown[list] is how many entries the list held last round, to
-- clear what is left past this round's.
local dest, births, deaths = {}, {}, {}
local birth_tables, death_tables = {}, {}
local shown = { [dest] = 0, [births] = 0, [deaths] = 0 }

-- trim clears list past its n entries and returns it.
local function trim(list, n)
  for k = n + 1, shown[list] do list[k] = nil end
  shown[list] = n
  return list
end

-- The round being resolved, for the functions below (resolve itself
-- keeps them in locals).
local cur_acts, cur_n, cur_next = nil, 0, 0

-- square, team and cell are square i's id, team and cell (key from 1).
local function square(i)
  if i <= cur_n then return cur_acts[i].square end
  return cur_next + i - cur_n - 1
end
local function team(i)
  if i <= cur_n then return cur_acts[i].team end
  return births[i - cur_n].team
end
local function cell(i)
  if i <= cur_n then return dest[i] + 1 end
  return births[i - cur_n].cell + 1
end

-- standing lists the squares standing in the cells cells[1..count] (a
-- cell no square stands in adds none), in the order they stand.
local function standing(cells, count)
  local list = {}
  for k = 1, count do
    local c = cells[k]
    if held[c] == round then
      local i = first[c]
      while i do
        list[#list + 1] = i
        i = after[i]
      end
    end
  end
  table.sort(list)
  return list
end

-- killer picks the killer among candidates[1..count] (ascending teams)
-- with the battle's seeded killer stream, only when there is a choice.
local function killer(game, count)
  if count == 1 then return candidates[1] end
  return candidates[game.pick(count) + 1]
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
local function died(nd, i, by, collision, own)
  nd = nd + 1
  local d = kept(death_tables, nd)
  d.square = square(i)
  d.killer = by
  d.collision = collision
  d.own = own
  deaths[nd] = d
  return nd
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
    local n = #acts
    cur_acts, cur_n, cur_next = acts, n, next_id
    local now, teams, nb, nd = round, game.teams(), 0, 0
    local held, first, after, attacked, hit, dest, births = held, first, after, attacked, hit, dest, births
    local nattacked, ncrowded = 0, 0

    -- 1. Moves go to their target; replication places the child in the
    --    target cell; attacks mark their target. Every square of the round
    --    stands in a cell: acts in id order, then newborns.
    local i, to = 0, 0
    while true do
      i = i + 1
      if i <= n then
        local a = acts[i]
        local action = a.action
        to = a.cell
        if action == "move" then
          to = a.target
        elseif action == "attack" then
          local target, t = a.target + 1, a.team + 1
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
          b.parent = a.square
          b.cell = a.target
          b.class = a.child
          b.team = a.team
          births[nb] = b
        end
        dest[i] = to
      elseif i <= n + nb then
        to = births[i - n].cell
      else
        break
      end
      local c = to + 1
      if held[c] ~= now then
        held[c], first[c], after[i] = now, i, false
      else
        local f = first[c]
        if after[f] == false then
          ncrowded = ncrowded + 1
          crowds[ncrowded] = c
        end
        after[i], first[c] = f, i
      end
    end
    trim(dest, n)
    trim(births, nb)

    -- 2. Every square standing in an attacked cell dies, own team included;
    --    the killer is one of the teams that attacked the cell.
    if nattacked > 0 then
      for _, v in ipairs(standing(attacks, nattacked)) do
        local c, count = cell(v), 0
        for t = 1, teams do
          local by = hit[t]
          if by and by[c] == now then
            count = count + 1
            candidates[count] = t - 1
          end
        end
        nd = died(nd, v, killer(game, count), false, false)
      end
    end

    -- 3. Every cell holding two or more of the remaining squares kills them
    --    all; the killer is one of the other teams in the cell. (A cell is
    --    attacked or not: its squares all died in 2, or none did.)
    if ncrowded > 0 then
      for _, v in ipairs(standing(crowds, ncrowded)) do
        local c = cell(v)
        if attacked[c] ~= now then
          marks = marks + 1
          local mark, mine, own = marks, team(v), false
          local j = first[c]
          while j do
            if j ~= v then
              local t = team(j)
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
          nd = died(nd, v, killer(game, count), true, own)
        end
      end
    end
    cur_acts = nil -- the engine's, for this round only
    return dest, births, trim(deaths, nd)
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
