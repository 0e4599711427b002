-- Shared by both interpreters in TestDifferentialLua51 (lua51diff_test.go):
-- each case is one expression list; its values are written as one line of
-- text the same way in Lua 5.1 and in the sandbox. Numbers are written with
-- %.17g (every bit shows); tostring is tested by cases that call it.
local out = {}
local function esc(v)
  if type(v) == "number" then return "n:" .. string.format("%.17g", v) end
  if type(v) == "table" then return "t:" .. T(v) end
  if type(v) ~= "string" then return type(v) .. ":" .. (type(v) == "boolean" and tostring(v) or "") end
  return (string.gsub(v, "[^%w%p ]", function(c) return "\\" .. string.byte(c) end))
end
local function pack(...) return {n = select("#", ...), ...} end
local function show(f)
  local ok, t = pcall(f)
  if not ok then
    out[#out + 1] = "error: " .. esc((string.gsub(tostring(t), "^[^:]*:%d+: ", "")))
    return
  end
  local parts = {}
  for i = 1, t.n do parts[i] = esc(t[i]) end
  out[#out + 1] = table.concat(parts, "\t")
end
-- T lists a table's entries at keys -2..12 and its border, in one line.
function T(t)
  local parts = {}
  for i = -2, 12 do
    local v = rawget(t, i)
    if v ~= nil then parts[#parts + 1] = i .. "=" .. (type(v) == "table" and "{}" or tostring(v)) end
  end
  return table.concat(parts, ",") .. "#" .. #t
end
-- G lists what string.gmatch gives.
function G(s, p)
  local parts = {}
  for a, b in string.gmatch(s, p) do parts[#parts + 1] = tostring(a) .. "," .. tostring(b) end
  return table.concat(parts, ";")
end
-- S sorts a copy of t (with the order function lt) and lists it.
function S(t, lt)
  local c = {}
  for i = 1, #t do c[i] = t[i] end
  table.sort(c, lt)
  return table.concat(c, " ")
end
-- I inserts into t as the arguments say and lists t.
function I(t, ...)
  table.insert(t, ...)
  return T(t)
end
-- R removes from t as the arguments say and lists what it removed and t.
function R(t, ...)
  local v = table.remove(t, ...)
  return tostring(v), T(t)
end
-- W calls f with the arguments under pcall and gives its results, or
-- "E:" and the error message with the chunk's name replaced by "@", so
-- that whether (and where) an error carries a position shows.
function W(f, ...)
  local r = pack(pcall(f, ...))
  if r[1] then return unpack(r, 2, r.n) end
  if type(r[2]) ~= "string" then return "E:" .. type(r[2]) end
  return "E:" .. (string.gsub(r[2], "^[^:]*:(%d+):", "@:%1:"))
end
-- EXACT marks a case whose numbers must agree to the last bit (no math
-- rounding allowed): it returns its arguments.
function EXACT(...) return ... end
-- RND calls math.random with the arguments and tells what Lua 5.1 promises
-- of the result (the numbers drawn differ: the sandbox has its own stream).
function RND(...)
  local n = select("#", ...)
  local v = math.random(...)
  if n == 0 then return type(v), v >= 0 and v < 1 end
  local lo, hi = 1, tonumber((...))
  if n == 2 then lo, hi = tonumber((...)), tonumber((select(2, ...))) end
  local function trunc(x) if x < 0 then return math.ceil(x) end return math.floor(x) end
  return type(v), v == math.floor(v), v >= trunc(lo) and v <= trunc(hi)
end
-- FOR counts the turns of a numeric for loop with these bounds.
function FOR(a, b, c)
  local n, last = 0, nil
  if c == nil then
    for i = a, b do n = n + 1 last = i if n > 20 then break end end
  else
    for i = a, b, c do n = n + 1 last = i if n > 20 then break end end
  end
  return n, last
end
