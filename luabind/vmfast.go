package luabind

import (
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// The VM core: one loop that runs the common instructions itself.
//
// countedLoop (vmloop.go), the previous core, runs every instruction as
// gopher-lua does: an indirect call through the dispatch table per
// instruction, each entry loading the state's register file and current
// frame again, and a wrapper or two in front (fastops.go, opcost.go)
// that decode the operands again. On a player's hot paths that is most of
// the time: profiles of the call-heavy and compute-heavy players of
// BenchmarkHeavyCall put the loop, the wrappers and the entries' own
// loads at well over half of the samples.
//
// fastLoop keeps the running frame, its code, constants and register base
// in locals and decodes each instruction once, in a switch. The cases are
// the instructions a player runs most, and each does, for the operands
// it takes, exactly what the team's dispatch table entry would do (the
// same values stored, the same registers, the same top, the same charge:
// none): loads and moves, upvalues, globals and fields read or written by
// a constant key, tables read and written by a number or short string key
// (the cases fastGetTable and fastSetTable take), arithmetic and
// comparisons of two numbers, `not`, `#` where fastLen answers, jumps,
// tests and the numeric for loop. Every other instruction, and every
// operand a case does not take (a metatable, a string operand, a register
// past the end of the register file, a long key), goes to the dispatch
// table entry as before. Calls of Lua functions with a fixed number of
// arguments, and returns of a fixed number of results, are done here
// (vmcall.go; a small callee runs without a frame while it can,
// vmleaf.go) or go straight to gopher-lua's entries (the wrappers in
// front of them only act on B=0 and on the concatenation builtin); after
// a call or a return that changed the frame, and after any instruction
// that went to the table, the loop reloads its frame.
//
// The count is the same: one instruction before each instruction, taken
// exactly where countedLoop takes it, so that a budget runs out on the
// same instruction, and every charge a wrapper makes is still made by
// that wrapper. The differential tests (corediff_test.go) run the old and
// the new core side by side on generated programs, the shipped players
// and mods, the hostile fixtures and the Lua 5.1 suite, and require the
// same results, counts, charges and errors.

// fastLoop runs Lua code from the current frame until baseframe returns,
// as countedLoop does, with the common instructions done in place.
func (b *budget) fastLoop(L *lua.LState, baseframe *frame, plain loopFunc, ops *opTable, nums *numAlloc) {
	cur := (**frame)(unsafe.Add(unsafe.Pointer(L), offCurrentFrame))
	if cf := *cur; cf == nil || cf.Fn.IsG {
		plain(L, baseframe)
		return
	}
	r := regs(L)
	// The fast paths are in the team's table unless a test turned them
	// off (fastPaths): the cases that stand in for them follow suit.
	fast := fastPaths
	var concat *lua.LFunction // the builtin fastConcat joins, when it is in front
	if b.team != nil && fast {
		concat = b.team.concat
	}
	callOp, returnOp := jumpTable[lua.OP_CALL], jumpTable[lua.OP_RETURN]
	stack := fixedStack(L)
	for {
		cf := *cur
		proto := cf.Fn.Proto
		code, consts := proto.Code, proto.Constants
		lbase := cf.LocalBase
		// The register file and the count are kept in locals while
		// instructions run here. Only gopher-lua's entries grow the
		// register file or charge the budget, and after one of those the
		// loop starts over from here; n is written back before anything
		// else reads the count.
		arr := r.array
		n := b.n
	frameLoop:
		for {
			inst := code[cf.Pc]
			cf.Pc++
			if n--; n < 0 {
				var ok bool
				if n, ok = b.chunkSpent(L, n); !ok {
					return
				}
			}
			op := int(inst >> 26)
			RA := lbase + int(inst>>18)&0xff
			switch op {
			case lua.OP_MOVE:
				if RA < len(arr) {
					arr[RA] = arr[lbase+int(inst&0x1ff)]
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_MOVEN:
				// A MOVE and the C moves after it, counted as one
				// instruction, as gopher-lua runs them.
				if lbase+0x100 <= len(arr) {
					arr[RA] = arr[lbase+int(inst&0x1ff)]
					if RA >= r.top {
						r.top = RA + 1
					}
					for range int(inst>>9) & 0x1ff {
						next := code[cf.Pc]
						cf.Pc++
						to := lbase + int(next>>18)&0xff
						arr[to] = arr[lbase+int(next&0x1ff)]
						if to >= r.top {
							r.top = to + 1
						}
					}
					continue
				}
			case lua.OP_LOADK:
				if RA < len(arr) {
					arr[RA] = consts[int(inst&0x3ffff)]
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_LOADBOOL:
				if RA < len(arr) {
					if inst&0x1ff != 0 {
						arr[RA] = lua.LTrue
					} else {
						arr[RA] = lua.LFalse
					}
					if RA >= r.top {
						r.top = RA + 1
					}
					if (inst>>9)&0x1ff != 0 {
						cf.Pc++
					}
					continue
				}
			case lua.OP_LOADNIL:
				if last := lbase + int(inst&0x1ff); last < len(arr) {
					for i := RA; i <= last; i++ {
						arr[i] = lua.LNil
						if i >= r.top {
							r.top = i + 1
						}
					}
					continue
				}
			case lua.OP_GETUPVAL:
				if RA < len(arr) {
					arr[RA] = cf.Fn.Upvalues[int(inst&0x1ff)].Value()
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_SETUPVAL:
				cf.Fn.Upvalues[int(inst&0x1ff)].SetValue(arr[RA])
				continue
			case lua.OP_GETGLOBAL:
				// A global that is there is found before any metamethod.
				if k, ok := consts[int(inst&0x3ffff)].(lua.LString); ok && RA < len(arr) {
					if v := cf.Fn.Env.RawGetString(string(k)); !isNil(v) {
						arr[RA] = v
						if RA >= r.top {
							r.top = RA + 1
						}
						continue
					}
				}
			case lua.OP_GETTABLEKS:
				if RA < len(arr) {
					if t, ok := arr[lbase+int(inst&0x1ff)].(*lua.LTable); ok {
						if k, ok := rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff).(lua.LString); ok {
							// A table without a metatable answers alone, nil
							// or not; one with a metatable only when the key
							// is there.
							if v := t.RawGetString(string(k)); !isNil(v) || isNil(t.Metatable) {
								arr[RA] = v
								if RA >= r.top {
									r.top = RA + 1
								}
								continue
							}
						}
					}
				}
			case lua.OP_SETTABLEKS:
				{
					if t, ok := arr[RA].(*lua.LTable); ok {
						if k, ok := rkLocal(consts, arr, lbase, int(inst&0x1ff)).(lua.LString); ok {
							// gopher-lua stores in place when the key is
							// there or the table has no metatable.
							if isNil(t.Metatable) || !isNil(t.RawGetString(string(k))) {
								setString(t, string(k), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff))
								continue
							}
						}
					}
				}
			case lua.OP_SELF:
				// A method of a table without a metatable, or of a string
				// (its metatable's __index table): found with a key short
				// enough that indexOp charges nothing for it.
				if RA+1 < len(arr) {
					self := arr[lbase+int(inst&0x1ff)]
					if k, ok := rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff).(lua.LString); ok {
						var v lua.LValue
						switch o := self.(type) {
						case *lua.LTable:
							if isNil(o.Metatable) && len(k) < bytesPerInstruction/2 {
								v = o.RawGetString(string(k))
							}
						case lua.LString:
							if 4*len(k) < bytesPerInstruction {
								if idx, ok := L.GetMetaField(o, "__index").(*lua.LTable); ok {
									if m := idx.RawGetString(string(k)); !isNil(m) {
										v = m
									}
								}
							}
						}
						if v != nil {
							arr[RA] = v
							arr[RA+1] = self
							if RA+1 >= r.top {
								r.top = RA + 2
							}
							continue
						}
					}
				}
			case lua.OP_GETTABLE:
				if RA < len(arr) && tableLayoutOK && fast {
					if t, ok := arr[lbase+int(inst&0x1ff)].(*lua.LTable); ok && isNil(t.Metatable) {
						var v lua.LValue
						handled := false
						switch k := rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff).(type) {
						case lua.LNumber:
							i := int(k)
							if a := (*lTable)(unsafe.Pointer(t)).array; i >= 1 && i <= len(a) && lua.LNumber(i) == k {
								v = a[i-1]
							} else {
								v = t.RawGet(k)
							}
							handled = true
						case lua.LString:
							if len(k) < bytesPerInstruction/2 {
								v, handled = t.RawGetString(string(k)), true
							}
						}
						if handled {
							arr[RA] = v
							if RA >= r.top {
								r.top = RA + 1
							}
							continue
						}
					}
				}
			case lua.OP_SETTABLE:
				if tableLayoutOK && fast {
					if t, ok := arr[RA].(*lua.LTable); ok && isNil(t.Metatable) {
						switch k := rkLocal(consts, arr, lbase, int(inst&0x1ff)).(type) {
						case lua.LNumber:
							i := int(k)
							if a := (*lTable)(unsafe.Pointer(t)).array; i >= 1 && i <= len(a) && lua.LNumber(i) == k {
								a[i-1] = rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff)
								continue
							} else if i == len(a)+1 && i < lua.MaxArrayIndex && lua.LNumber(i) == k {
								t.RawSet(k, rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff))
								continue
							}
						case lua.LString:
							if len(k) < bytesPerInstruction/2 {
								setString(t, string(k), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff))
								continue
							}
						}
					}
				}
			case lua.OP_ADD:
				// Each operator its own case: a shared case would pick the
				// operation again with a second switch on op.
				if x, y, ok := numbers(consts, arr, lbase, inst); ok && RA < len(arr) {
					arr[RA] = nums.box(float64(x) + float64(y))
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_SUB:
				if x, y, ok := numbers(consts, arr, lbase, inst); ok && RA < len(arr) {
					arr[RA] = nums.box(float64(x) - float64(y))
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_MUL:
				if x, y, ok := numbers(consts, arr, lbase, inst); ok && RA < len(arr) {
					arr[RA] = nums.box(float64(x) * float64(y))
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_DIV:
				if x, y, ok := numbers(consts, arr, lbase, inst); ok && RA < len(arr) {
					arr[RA] = nums.box(float64(x) / float64(y))
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_MOD, lua.OP_POW:
				if x, y, ok := numbers(consts, arr, lbase, inst); ok && RA < len(arr) {
					var v float64
					if m, ok := intMod(op, x, y); ok {
						v = m
					} else {
						v = arith(op, float64(x), float64(y))
					}
					arr[RA] = nums.box(v)
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_NOT:
				if RA < len(arr) {
					if isFalsy(arr[lbase+int(inst&0x1ff)]) {
						arr[RA] = lua.LTrue
					} else {
						arr[RA] = lua.LFalse
					}
					if RA >= r.top {
						r.top = RA + 1
					}
					continue
				}
			case lua.OP_LEN:
				if RA < len(arr) && fast {
					if n := quickLen(arr[lbase+int(inst&0x1ff)]); n >= 0 {
						arr[RA] = nums.box(float64(n))
						if RA >= r.top {
							r.top = RA + 1
						}
						continue
					}
				}
			case lua.OP_JMP:
				cf.Pc += int(inst&0x3ffff) - opMaxArgSbx
				continue
			case lua.OP_EQ, lua.OP_LT, lua.OP_LE:
				if holds, ok := quickCompare(op, rkLocal(consts, arr, lbase, int(inst&0x1ff)), rkLocal(consts, arr, lbase, int(inst>>9)&0x1ff)); ok {
					if n, ok = b.compared(L, cf, code, n, holds, inst); !ok {
						return
					}
					continue
				}
			case lua.OP_TEST:
				ok := true
				if !isFalsy(arr[RA]) == ((inst>>9)&0x1ff == 0) {
					cf.Pc++
				} else if n, ok = b.nextJump(L, cf, code, n); !ok {
					return
				}
				continue
			case lua.OP_TESTSET:
				if RA < len(arr) {
					if v := arr[lbase+int(inst&0x1ff)]; !isFalsy(v) != ((inst>>9)&0x1ff == 0) {
						arr[RA] = v
						if RA >= r.top {
							r.top = RA + 1
						}
						ok := true
						if n, ok = b.nextJump(L, cf, code, n); !ok {
							return
						}
					} else {
						cf.Pc++
					}
					continue
				}
			case lua.OP_FORLOOP:
				if RA+3 < len(arr) {
					init, ok1 := arr[RA].(lua.LNumber)
					limit, ok2 := arr[RA+1].(lua.LNumber)
					step, ok3 := arr[RA+2].(lua.LNumber)
					if ok1 && ok2 && ok3 {
						init += step
						v := nums.boxLikeGopherLua(float64(init))
						arr[RA] = v
						if RA >= r.top {
							r.top = RA + 1
						}
						if forGoesOn(init, limit, step) {
							cf.Pc += int(inst&0x3ffff) - opMaxArgSbx
							arr[RA+3] = v
							if RA+3 >= r.top {
								r.top = RA + 4
							}
						} else {
							setTop(r, RA+1)
						}
						continue
					}
				}
			case lua.OP_TFORLOOP:
				b.n = n
				if stack != nil && forGo(L, cur, stack, r, cf, RA, int(inst>>9)&0x1ff) {
					arr, n = r.array, b.n // the iterator may have grown the one and charged the other
					continue
				}
			case lua.OP_CALL:
				// With B=0 (the arguments run up to the top) movesOp charges
				// for many; the concatenation builtin may be joined in place
				// (fastConcat, B≠0). Those go through the table; every other
				// call is gopher-lua's CALL, done here for a Lua callee.
				B := int(inst & 0x1ff)
				if B == 0 {
					moved := r.top - RA - 1
					if moved < 0 || moved >= valuesPerInstruction {
						break
					}
					B = moved + 1
				}
				b.n = n
				if stack != nil {
					// A Lua callee first (vmleaf.go); the builtin is a
					// Go function, which leafRun declines.
					if how := b.leafRun(L, cur, stack, r, cf, RA, B, int(inst>>9)&0x1ff, nums, n); how == leafReturned {
						n = b.n
						continue
					} else if how == leafPushed {
						break frameLoop
					}
				}
				if fn, ok := arr[RA].(*lua.LFunction); ok && fn == concat && inst&0x1ff != 0 {
					break
				}
				if callOp(L, inst, baseframe) == 1 {
					b.noteReturn(cf)
					return
				}
				break frameLoop
			case lua.OP_RETURN:
				// With B=0 movesOp charges for many results.
				B := int(inst & 0x1ff)
				if B == 0 {
					if moved := r.top - RA; moved < 0 || moved >= valuesPerInstruction {
						break
					}
				}
				b.n = n
				if stack != nil {
					if done, exit := returnLua(L, cur, stack, r, cf, baseframe, RA, B); exit {
						b.noteReturn(cf)
						return
					} else if done {
						break frameLoop
					}
				}
				if returnOp(L, inst, baseframe) == 1 {
					b.noteReturn(cf)
					return
				}
				break frameLoop
			}
			b.n = n
			if ops[op](L, inst, baseframe) == 1 {
				b.noteReturn(cf)
				return
			}
			if op == lua.OP_FORPREP {
				// A loop whose body is all number work runs in
				// numberRun (vmshadow.go), from its FORLOOP on, its
				// numbers unboxed. (Asked here, once a loop, rather than
				// at every FORLOOP: a case that asks costs the whole
				// loop a few percent, in the registers it takes.)
				if pc := cf.Pc; *cur == cf && pc < len(code) && int(code[pc]>>26) == lua.OP_FORLOOP && nums.numberLoop(code, pc) {
					var ok bool
					if b.n, ok = b.numberRun(L, cf, code, consts, r, lbase, nums, b.n); !ok {
						return
					}
				}
			}
			break
		}
	}
}
