-- expect: error
-- shown: no integer representation
-- Go's float→int conversion of 1e300 gives different integers on amd64 and
-- arm64; as a random seed or an ldexp exponent it would split battles.
return { name = "Hostile", run = function()
  math.randomseed(1e300)
  return MOVE, N
end }
