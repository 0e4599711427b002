-- expect: error
-- An error whose text is not UTF-8: ÿþ
return { name = "Hostile", run = function()
  error("bad bytes \255\254 here")
end }
