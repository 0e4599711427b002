package luabind

import (
	"math"

	"github.com/yuin/gopher-lua/ast"
)

// Compiling is work no instruction budget pays for, and gopher-lua's
// compiler is not linear: it finds a function's constants by scanning the
// constants it already has (one scan per numeral, string, global name or
// field name it meets), and a variable by scanning every local of every
// enclosing block and function. A file of tens of thousands of distinct
// numbers in one function took half a minute of CPU to compile, in every
// process that read the folder.
//
// So the rewriter, which walks the whole syntax tree before the compiler
// sees it, counts that work as the compiler will do it — for each
// reference, the constants its function holds so far, or the locals in
// sight — and refuses a file whose count passes maxCompileWork before any
// of it is compiled. It also keeps Lua 5.1's own limit of 200 active
// local variables per function, with 5.1's message. No honest player comes
// near either: the shipped players count a few thousand units each.
const (
	// maxCompileWork bounds the comparisons compiling one file may make:
	// about 60 ms of CPU on the CI machine at the bound.
	maxCompileWork = 16 << 20
	// maxLocals is Lua 5.1's LUAI_MAXVARS.
	maxLocals = 200
)

// constKey is a constant as the compiler tells constants apart.
type constKey struct {
	str   bool
	s     string
	n     float64
	isNaN bool
}

// fnCost is the compile cost state of one function being walked.
type fnCost struct {
	line   int // where it is defined; 0 for the main chunk
	consts map[constKey]bool
	active int // locals in scope now
}

// cost is the whole file's count.
type cost struct {
	fns     []*fnCost
	visible int // locals in sight: active locals of every enclosing function
	work    int64
}

func (c *cost) fn() *fnCost { return c.fns[len(c.fns)-1] }

// enter starts counting a function with params parameters.
func (r *rewriter) enterFunc(line, params int, at ast.PositionHolder) {
	r.cost.fns = append(r.cost.fns, &fnCost{line: line, consts: map[constKey]bool{}})
	r.declare(params, at)
}

// leaveFunc stops counting the innermost function.
func (r *rewriter) leaveFunc() {
	f := r.cost.fn()
	r.cost.visible -= f.active
	r.cost.fns = r.cost.fns[:len(r.cost.fns)-1]
}

// scope returns what block is entered, to pass to closeScope when it ends.
func (r *rewriter) scope() int { return r.cost.fn().active }

// closeScope forgets the locals declared since scope.
func (r *rewriter) closeScope(mark int) {
	f := r.cost.fn()
	r.cost.visible -= f.active - mark
	f.active = mark
}

// declare counts n new locals of the innermost function.
func (r *rewriter) declare(n int, at ast.PositionHolder) {
	f := r.cost.fn()
	f.active += n
	r.cost.visible += n
	r.spend(int64(n), at) // each is registered in its block
	if f.active > maxLocals {
		if f.line == 0 {
			r.fail(at.Line(), "main function has more than %d local variables", maxLocals)
		} else {
			r.fail(at.Line(), "function at line %d has more than %d local variables", f.line, maxLocals)
		}
	}
}

// lookup counts the search for a name: the locals in sight, then, when it
// is a global, its constant.
func (r *rewriter) lookup(name string, at ast.PositionHolder) {
	r.spend(int64(r.cost.visible), at)
	r.constant(constKey{str: true, s: name}, at)
}

// constant counts one use of a constant: a scan of the constants the
// function holds, a longer one for long strings of equal length.
func (r *rewriter) constant(k constKey, at ast.PositionHolder) {
	f := r.cost.fn()
	n := int64(len(f.consts))
	if k.str {
		n += n * int64(len(k.s)/64)
	}
	r.spend(n+1, at)
	if k.isNaN {
		k.n = 0
	}
	f.consts[k] = true
}

func (r *rewriter) number(v float64, at ast.PositionHolder) {
	r.constant(constKey{n: v, isNaN: math.IsNaN(v)}, at)
}

// spend adds work and fails the file once it passes the bound.
func (r *rewriter) spend(n int64, at ast.PositionHolder) {
	r.cost.work += n
	if r.cost.work > maxCompileWork {
		r.fail(at.Line(), "this file would take too long to compile: too many distinct numbers, strings and names in one function, or too many locals in sight (split the biggest tables and functions)")
	}
}
