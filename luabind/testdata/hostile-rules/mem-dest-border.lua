-- want: at most 2 are wanted
-- resolve's destination list has a border of 2^40.
return {
  name = "Border", protocol = "squarebattle",
  place = function(game) return {0, 9} end,
  resolve = function(game, acts)
    local t = {}
    for i = 1, 1024 do t[i] = 0 end
    local j = 2048
    while j <= 2^40 do t[j] = 0; j = j * 2 end
    return t, {}, {}
  end,
  over = function() return false end,
}
