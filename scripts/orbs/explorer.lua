-- Explorer: the seed's example bot. A voyager steps in a random direction;
-- a planet builds a voyager on a random free neighbouring tile whenever the
-- team can pay for one.
local STEPS = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 } }
local AROUND = { { -1, -1 }, { -1, 0 }, { -1, 1 }, { 0, -1 }, { 0, 1 }, { 1, -1 }, { 1, 0 }, { 1, 1 } }

return {
  name = "Explorer",
  victory = "Somewhere out there, an orb.",
  turn = function(view, memory)
    local me, n = view.me, view.n
    if me.unit == 1 then
      local s = STEPS[math.random(#STEPS)]
      return { move = { s[1], s[2] } }
    end
    if view.orbs < view.cost then return nil end
    -- Every neighbour is within a planet's sight: the free ones are known.
    local taken = {}
    for _, o in ipairs(view.robots) do
      if o.visible then taken[o.r * n + o.c + 1] = true end
    end
    local options = {}
    for _, d in ipairs(AROUND) do
      local r, c = me.r + d[1], me.c + d[2]
      if r >= 0 and r < n and c >= 0 and c < n and view.map[r * n + c + 1] and not taken[r * n + c + 1] then
        options[#options + 1] = d
      end
    end
    if #options > 0 then
      local d = options[math.random(#options)]
      return { build = { d[1], d[2] } }
    end
  end,
}
