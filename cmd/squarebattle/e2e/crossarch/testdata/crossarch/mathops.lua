-- Mathops: Mathy (mathy.lua) with the % and ^ operators: a player whose every move hangs on the last bits of floating-point
-- math, for the cross-architecture test (arch_test.go). Every math function,
-- % and ^, tostring and string.format of floats, math.random with ranges and
-- fractional numbers used as integers feed a sum from which the direction is
-- picked: one bit of difference between two builds changes the board.

local unary = {
  "sin", "cos", "tan", "asin", "acos", "atan", "exp", "log", "log10", "sinh",
  "cosh", "tanh", "sqrt", "abs", "ceil", "floor", "deg", "rad",
}

-- low is the three lowest bits of x's mantissa (0 for zero, inf and nan).
local function low(x)
  if x ~= x or x == math.huge or x == -math.huge or x == 0 then return 0 end
  local m = math.frexp(x)
  return math.fmod(math.abs(m) * 9007199254740992, 8)
end

return {
  name = "Mathops",
  run = function(self, team, view, row, col)
    local t = round() + row * 0.37 + col * 1.91 + (self.k or 0)
    local acc = 0
    for i, name in ipairs(unary) do
      local x = t / (i + 1.5)
      if name == "asin" or name == "acos" then x = math.sin(x) * 0.999 end
      if name == "exp" or name == "sinh" or name == "cosh" then x = math.fmod(x * 13, 700) end
      acc = acc + low(math[name](x)) * i
    end
    acc = acc + low(math.atan2(row - 5.5, col + 0.25)) + low(math.pow(t, 1.37))
    acc = acc + low(t ^ 0.61) + low(math.fmod(t * 3.3, 1.7)) + low((t * 3.3) % 1.7)
    local _, f = math.modf(t * 1.1)
    acc = acc + low(f) + low(math.ldexp(t, 3))
    local s = string.format("%.17g %.3f %g %e", math.sin(t), math.exp(t / 40), math.cos(t), math.tan(t))
    for i = 1, #s do acc = acc + s:byte(i) end
    acc = acc + #tostring(math.log(t)) + #string.rep("x", t % 5.7) + #(("abcdefgh"):sub(t % 3.3, t % 7.9))
    acc = acc + math.random(1, 6) + math.random(3.9) + math.floor(math.random() * 10)
    self.k = math.fmod(acc * 1.618, 97.3)
    for d = 1, 8 do
      if view[d] ~= EMPTY and view[d] ~= WALL and view[d] ~= team then return ATTACK, d end
    end
    local d = 1 + math.fmod(acc, 8)
    if stats()[team].squares < 30 and math.fmod(acc, 11) == 0 and free(d) then
      plan(d, "birth")
      return REPLICATE, d
    end
    if free(d) then
      plan(d)
      return MOVE, d
    end
    return WAIT
  end,
}
