-- Hoard: keeps everything it ever made, and from round 50 on makes a lot
-- of it, until its team's Lua memory is over the limit.
local kept = {}
return {
  name = "Hoard",
  run = function(self, team, view)
    if round() >= 50 then
      kept[#kept + 1] = string.rep("x", 512 * 1024) .. #kept -- line 8
    end
    return WAIT
  end,
}
