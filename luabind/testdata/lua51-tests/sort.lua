-- From the official Lua 5.1 test suite (lua5.1-tests), as checked in unchanged
-- by github.com/snabbco/snabb at commit 0dda7b2700ded31372d97edb98cf5fa5ca5d3f5b.
-- Copyright (C) 1994-2012 Lua.org, PUC-Rio; MIT licence, see README.md here.
-- Edited for SquareBattle's sandbox: a line it cannot run is replaced by a
-- comment "-- sandbox: why", a deliberate deviation by "-- deviation: why".
print"testing sort"


function check (a, f)
  f = f or function (x,y) return x<y end;
  for n=table.getn(a),2,-1 do
    assert(not f(a[n], a[n-1]))
  end
end

a = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
     "Oct", "Nov", "Dec"}

table.sort(a)
check(a)

limit = 30000
if rawget(_G, "_soft") then limit = 5000 end

a = {}
for i=1,limit do
  a[i] = math.random()
end

-- sandbox: needs os.clock (timing only), which the sandbox leaves out
table.sort(a)
-- sandbox: needs os.clock (timing only), which the sandbox leaves out
check(a)

-- sandbox: needs os.clock (timing only), which the sandbox leaves out
table.sort(a)
-- sandbox: needs os.clock (timing only), which the sandbox leaves out
check(a)

a = {}
for i=1,limit do
  a[i] = math.random()
end

i=0 -- sandbox: "x = os.clock();" removed from this line (timing only; the sandbox has no os)
table.sort(a, function(x,y) i=i+1; return y<x end)
-- sandbox: needs os.clock (timing only), which the sandbox leaves out
      -- sandbox: needs os.clock (timing only), which the sandbox leaves out
check(a, function(x,y) return y<x end)


table.sort{}  -- empty array

for i=1,limit do a[i] = false end
-- sandbox: needs os.clock (timing only), which the sandbox leaves out
table.sort(a, function(x,y) return nil end)
-- sandbox: needs os.clock (timing only), which the sandbox leaves out
check(a, function(x,y) return nil end)
for i,v in pairs(a) do assert(not v or i=='n' and v==limit) end

a = {"álo", "\0first :-)", "alo", "then this one", "45", "and a new"}
table.sort(a)
check(a)

table.sort(a, function (x, y)
          -- sandbox: needs loadstring, which the sandbox leaves out
          -- sandbox: needs collectgarbage, which the sandbox leaves out
          return x<y
        end)


tt = {__lt = function (a,b) return a.val < b.val end}
a = {}
for i=1,10 do  a[i] = {val=math.random(100)}; setmetatable(a[i], tt); end
table.sort(a)
check(a, tt.__lt)
check(a)

print"OK"
