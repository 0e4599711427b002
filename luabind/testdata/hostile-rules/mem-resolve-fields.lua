-- want: death 1: square is -1, not a whole number from 0
-- A death of square -1 (and NaN, 2^60 in other fields) must be refused
-- before the engine indexes its squares with it.
return {
  name = "Fields", protocol = "squarebattle",
  place = function(game) return {0, 9} end,
  resolve = function(game, acts)
    local dest = {}
    for i, a in ipairs(acts) do dest[i] = a.cell end
    return dest, {}, {{square = -1, killer = 0/0}}
  end,
  over = function() return false end,
}
