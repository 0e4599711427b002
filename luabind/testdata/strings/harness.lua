local out = {}
local function esc(v)
  if type(v) == "number" then return "n:" .. string.format("%.14g", v) end
  if type(v) ~= "string" then return type(v) .. ":" .. tostring(v) end
  return (string.gsub(v, "[^%w%p ]", function(c) return "\\" .. string.byte(c) end))
end
local function pack(...) return {n = select("#", ...), ...} end
local function show(f)
  local ok, t = pcall(f)
  if not ok then
    out[#out + 1] = "error: " .. (string.gsub(tostring(t), "^[^:]*:%d+: ", ""))
    return
  end
  local parts = {}
  for i = 1, t.n do parts[i] = esc(t[i]) end
  out[#out + 1] = table.concat(parts, "\t")
end
local function gm(s, p)
  local parts = {}
  for a, b in string.gmatch(s, p) do parts[#parts + 1] = tostring(a) .. "," .. tostring(b) end
  return table.concat(parts, ";")
end
