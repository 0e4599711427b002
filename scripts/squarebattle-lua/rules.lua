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
    local dest, births, deaths = {}, {}, {}
    local attackers = {} -- cell -> set of attacking teams
    local standing = {}  -- every square of the round in id order, newborns last

    -- 1. Moves go to their target; replication places the child in the
    --    target cell; attacks mark their target.
    for i, a in ipairs(acts) do
      dest[i] = a.cell
      if a.action == "move" then
        dest[i] = a.target
      elseif a.action == "attack" then
        local set = attackers[a.target] or {}
        set[a.team] = true
        attackers[a.target] = set
      elseif a.action == "replicate" then
        births[#births + 1] = { parent = a.square, cell = a.target, class = a.child, team = a.team }
      end
      standing[i] = { id = a.square, team = a.team, cell = dest[i] }
    end
    for k, b in ipairs(births) do
      standing[#standing + 1] = { id = next_id + k - 1, team = b.team, cell = b.cell }
    end

    -- The killer is picked among the candidate teams, in ascending order,
    -- with the battle's seeded killer stream, only when there is a choice.
    local function killer(set)
      local teams = {}
      for t = 0, game.teams() - 1 do
        if set[t] then teams[#teams + 1] = t end
      end
      if #teams == 1 then return teams[1] end
      return teams[game.pick(#teams) + 1]
    end

    -- 2. Every square standing in an attacked cell dies, own team included.
    for _, s in ipairs(standing) do
      local set = attackers[s.cell]
      if set then
        s.dead = true
        deaths[#deaths + 1] = { square = s.id, killer = killer(set), collision = false, own = false }
      end
    end

    -- 3. Every cell holding two or more of the remaining squares kills them
    --    all; the killer is one of the other teams in the cell.
    local occupants = {}
    for _, s in ipairs(standing) do
      if not s.dead then
        local list = occupants[s.cell] or {}
        list[#list + 1] = s
        occupants[s.cell] = list
      end
    end
    for _, s in ipairs(standing) do
      local list = occupants[s.cell]
      if not s.dead and #list > 1 then
        local set, own = {}, false
        for _, o in ipairs(list) do
          if o ~= s then
            set[o.team] = true
            if o.team == s.team then own = true end
          end
        end
        deaths[#deaths + 1] = { square = s.id, killer = killer(set), collision = true, own = own }
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
