-- want: at most 2 are wanted
-- place returns a list whose border is 2^40: one entry per power of two
-- past the array part. Go must not size anything by that border.
return {
  name = "Border", protocol = "squarebattle",
  place = function(game)
    local t = {}
    for i = 1, 1024 do t[i] = i end
    local j = 2048
    while j <= 2^40 do t[j] = 0; j = j * 2 end
    return t
  end,
  resolve = function(game, acts) return {}, {}, {} end,
  over = function() return false end,
}
