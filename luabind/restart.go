package luabind

// Restart drops the team's Lua state and everything its scripts hold and
// starts it again exactly as NewTeam did at the start of the battle
// (its math.random stream included); its squares live on with empty data.
// A team in a worker process that died starts again in a fresh worker in
// the same state, so a re-run that replays that death (engine.
// ReplayBackstops) restarts an in-process team here and plays on alike.
// What the scripts printed is kept, for people.
func (tm *Team) Restart() {
	log, printed := tm.log, tm.printedLines
	tm.Close()
	tm.start(tm.opts)
	tm.log, tm.printedLines = log, printed
}
