-- Crash: takes down the worker process it runs in from round 5 on (go_exit
-- is a hook only the tests' workers have: the program has no such global).
return {
  name = "Crash",
  run = function(self, team, view)
    if round() >= 5 then go_exit() end
    return WAIT
  end,
}
