-- Spreader: voyagers spread out over the orb-rich ground nobody else holds.
--
-- Every unit broadcasts where it stands (signal = (team + 1) * 4096 +
-- r * 64 + c), so teammates out of sight are still known. A voyager scores
-- each tile it could step to (or staying put) by the orbs within RADIUS it
-- would be strictly closest to, against every known teammate and every
-- enemy in sight, and takes the best. A planet builds as soon as it can, on
-- the free neighbouring tile with the most orbs around it.
local RADIUS = 5
local STEPS = { { 0, 0 }, { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } }
local AROUND = { { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, -1 }, { 0, 1 }, { 1, -1 }, { 1, 0 }, { 1, 1 } }

local function abs(x) return x < 0 and -x or x end

return {
  name = "Spreader",
  victory = "Every orb has a voyager nearer to it than yours.",
  turn = function(view, memory)
    local me, n, map, orbs = view.me, view.n, view.map, view.orbs_map
    local signal = (me.team + 1) * 4096 + me.r * 64 + me.c
    -- Who stands where: what is in sight, and teammates' broadcasts.
    local taken, friends, rivals = {}, {}, {}
    for _, o in ipairs(view.robots) do
      local r, c, team = o.r, o.c, o.team
      if not o.visible and o.signal >= 4096 and o.signal < 3 * 4096 then
        local s = o.signal % 4096
        r, c, team = (s - s % 64) / 64, s % 64, (o.signal - s) / 4096 - 1
        if team ~= me.team then r = nil end -- an enemy's claim: not trusted
      end
      if r and o.id ~= me.id then
        taken[r * n + c + 1] = true
        if team == me.team then
          if o.unit == 1 then friends[#friends + 1] = { r, c } end
        elseif o.unit == 1 then
          rivals[#rivals + 1] = { r, c }
        end
      end
    end
    local function open(r, c)
      return r >= 0 and r < n and c >= 0 and c < n and map[r * n + c + 1] and not taken[r * n + c + 1]
    end
    if me.unit == 0 then
      if view.orbs < view.cost then return { signal = signal } end
      local best, bestValue
      for _, d in ipairs(AROUND) do
        local r, c = me.r + d[1], me.c + d[2]
        if open(r, c) then
          local v = 0
          for dr = -2, 2 do
            for dc = -2, 2 do
              local rr, cc = r + dr, c + dc
              if rr >= 0 and rr < n and cc >= 0 and cc < n then v = v + orbs[rr * n + cc + 1] end
            end
          end
          if not best or v > bestValue then best, bestValue = d, v end
        end
      end
      if best then return { build = { best[1], best[2] }, signal = signal } end
      return { signal = signal }
    end
    -- A voyager: may it stand at (r, c) without a teammate next to it?
    local function lonely(r, c)
      for _, f in ipairs(friends) do
        if abs(f[1] - r) <= 1 and abs(f[2] - c) <= 1 then return false end
      end
      return true
    end
    local others = {}
    for _, f in ipairs(friends) do others[#others + 1] = f end
    for _, f in ipairs(rivals) do others[#others + 1] = f end
    local best, bestValue
    for k, s in ipairs(STEPS) do
      local r, c = me.r + s[1], me.c + s[2]
      if k == 1 or (open(r, c) and lonely(r, c)) then
        local v = math.random() * 0.5
        for dr = -RADIUS, RADIUS do
          local span = RADIUS - abs(dr)
          for dc = -span, span do
            local rr, cc = r + dr, c + dc
            if rr >= 0 and rr < n and cc >= 0 and cc < n then
              local worth = orbs[rr * n + cc + 1]
              if worth > 0 then
                local mine = abs(dr) + abs(dc)
                for _, o in ipairs(others) do
                  if abs(o[1] - rr) + abs(o[2] - cc) <= mine then worth = 0; break end
                end
                v = v + worth
              end
            end
          end
        end
        if not best or v > bestValue then best, bestValue = s, v end
      end
    end
    if best[1] == 0 and best[2] == 0 then return { signal = (me.team + 1) * 4096 + me.r * 64 + me.c } end
    local r, c = me.r + best[1], me.c + best[2]
    return { move = { best[1], best[2] }, signal = (me.team + 1) * 4096 + r * 64 + c }
  end,
}
