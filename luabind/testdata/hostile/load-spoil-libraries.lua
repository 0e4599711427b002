-- expect: error
-- shown: only my own copies changed
-- A file that replaces library functions at its top level and in every call
-- changes its own copies only: the files loaded after it, and the other
-- classes of its team, keep the pristine ones, and so do methods on strings.
local function boom() error("spoilt") end
local function spoil()
  string.format, string.rep, string.sub = boom, boom, boom
  table.insert, table.sort, table.concat = boom, boom, boom
  math.floor, math.random, math.max = boom, boom, boom
  setmetatable(math, { __index = boom })
  local mt = getmetatable("")
  if type(mt) == "table" then mt.__index = boom end
end
spoil()
return { name = "Spoiler", run = function()
  spoil()
  local mine = pcall(string.rep, "x", 2)
  if not mine and ("x"):rep(2) == "xx" and getmetatable("") == false then
    error("only my own copies changed")
  end
  return WAIT
end }
