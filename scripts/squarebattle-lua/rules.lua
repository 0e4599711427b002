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
-- 1 (cell + 1, team + 1). Per square of the round (acts first, then
-- newborns): ids, team_of, cell_of, dead, and after (the next square in
-- the same cell). Per cell: attacked, held (squares standing there this
-- round), crowd (how many), first. hit[team + 1][cell + 1]: that team
-- attacked that cell. there[team + 1]: a team is in the cell being looked
-- at (marked per square with marks).
local round, marks = 0, 0
local ids, team_of, cell_of, dead, after = {}, {}, {}, {}, {}
local attacked, held, crowd, first, hit, there = {}, {}, {}, {}, {}, {}
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
    local dest, births, deaths = {}, {}, {}
    local n = #acts

    -- 1. Moves go to their target; replication places the child in the
    --    target cell; attacks mark their target. Every square of the round
    --    stands somewhere, in id order, newborns last.
    for i = 1, n do
      local a = acts[i]
      local action, to = a.action, a.cell
      if action == "move" then
        to = a.target
      elseif action == "attack" then
        local target, by = a.target + 1, hit[a.team + 1]
        if not by then
          by = {}
          hit[a.team + 1] = by
        end
        attacked[target], by[target] = now, now
      elseif action == "replicate" then
        births[#births + 1] = { parent = a.square, cell = a.target, class = a.child, team = a.team }
      end
      dest[i] = to
      ids[i], team_of[i], cell_of[i], dead[i] = a.square, a.team, to, false
    end
    local m = n
    for k, b in ipairs(births) do
      m = m + 1
      ids[m], team_of[m], cell_of[m], dead[m] = next_id + k - 1, b.team, b.cell, false
    end

    -- 2. Every square standing in an attacked cell dies, own team included;
    --    the killer is one of the teams that attacked the cell.
    for i = 1, m do
      local c = cell_of[i] + 1
      if attacked[c] == now then
        dead[i] = true
        local count = 0
        for t = 1, teams do
          local by = hit[t]
          if by and by[c] == now then
            count = count + 1
            candidates[count] = t - 1
          end
        end
        deaths[#deaths + 1] = { square = ids[i], killer = killer(game, count), collision = false, own = false }
      end
    end

    -- 3. Every cell holding two or more of the remaining squares kills them
    --    all; the killer is one of the other teams in the cell. The squares
    --    of a cell are chained: first[c], then after[i] until false.
    for i = 1, m do
      if not dead[i] then
        local c = cell_of[i] + 1
        if held[c] ~= now then
          held[c], crowd[c], after[i] = now, 1, false
        else
          crowd[c], after[i] = crowd[c] + 1, first[c]
        end
        first[c] = i
      end
    end
    for i = 1, m do
      local c = cell_of[i] + 1
      if not dead[i] and crowd[c] > 1 then
        marks = marks + 1
        local mark, mine, own = marks, team_of[i], false
        local j = first[c]
        while j do
          if j ~= i then
            local t = team_of[j]
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
        deaths[#deaths + 1] = { square = ids[i], killer = killer(game, count), collision = true, own = own }
      end
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
