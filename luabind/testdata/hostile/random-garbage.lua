-- expect: error
-- math.random with intervals Go cannot draw from: NaN, overflowing and huge.
return { name = "Hostile", run = function(self)
  self.n = (self.n or 0) + 1
  if self.n % 3 == 0 then return MOVE, math.random(0/0) end
  if self.n % 3 == 1 then return MOVE, math.random(-9e18, 9e18) end
  return MOVE, math.random(1e300)
end }
