// Package oslimit holds what every child process the program starts to
// run code it does not trust has in common: the resource limits the
// kernel enforces on it, a process group of its own, death with the
// program, and a kill that reaches the whole group. The Lua worker
// processes (luabind/worker) and external bots (engine/bot/process) both
// use it; it imports no Lua and does no I/O of its own.
//
// Limits are set by the child on itself (Apply), before it runs anything
// untrusted, rather than by the parent with prlimit after the start: then
// there is no moment in which the child runs unlimited, and the limits
// hold whoever started the binary.
package oslimit
