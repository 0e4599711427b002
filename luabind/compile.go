package luabind

import (
	"bytes"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// concatName is the chunk-local variable that holds the checked
// concatenation function. Scripts may not use the name, so they cannot
// rebind it.
const concatName = "__sb_concat"

// lenName holds the length function that replaces the `#` operator.
const lenName = "__sb_len"

// maxNesting bounds how deeply expressions and blocks may nest. gopher-lua's
// compiler recurses on nesting, and an absurdly nested script would otherwise
// cost the process a huge Go stack before any budget applies. 200 is Lua
// 5.1's own limit ("chunk has too many syntax levels"). Lua's parser reads
// a chain of left-associative operators (a + b + c ...) and of elseifs in a
// loop, without limit; the AST nests them, so here each link of such a
// chain counts as 1/nestUnit of a level: a chain of up to 1,000 links
// compiles (its time in gopher-lua's compiler grows with the square of
// its length: 10 to 30 ms at 1,000 links on the CI machine; measured with
// go test ./luabind -run TestNestingLimits -v).
const (
	maxNesting = 200
	nestUnit   = 6
)

// compileScript turns Lua source into a shared prototype. Every `a .. b` is
// rewritten into a call of a checked function passed to the chunk, because
// the CONCAT instruction is a single VM step however long the result, and
// `s = s .. s` forty times would otherwise exhaust the machine's memory.
// `#x` stays the LEN instruction, which the team's dispatch table wraps
// (lenOp, tables.go); only when the counted loop is off (vmloop.go), and
// with it that table, is it rewritten into a call of the checked luaLen.
func compileScript(name string, src []byte, maxBytes int) (*lua.FunctionProto, error) {
	if len(src) > maxBytes {
		return nil, fmt.Errorf("%s: script is %d bytes, the limit is %d (limits.script_bytes)", name, len(src), maxBytes)
	}
	if bytes.HasPrefix(src, []byte("\x1bLua")) {
		return nil, fmt.Errorf("%s: precompiled bytecode is not accepted", name)
	}
	chunk, err := parse.Parse(bytes.NewReader(src), name)
	if err != nil {
		return nil, parseError(name, err)
	}
	r := rewriter{name: name}
	at := &ast.NilExpr{}
	at.SetLine(1)
	r.enterFunc(0, 2, at) // the main chunk, with the two locals head adds
	r.stmts(chunk, 0)
	r.leaveFunc()
	if r.err != nil {
		return nil, r.err
	}
	head := &ast.LocalAssignStmt{Names: []string{concatName, lenName}, Exprs: []ast.Expr{&ast.Comma3Expr{}}}
	head.SetLine(1)
	head.SetLastLine(1)
	chunk = append([]ast.Stmt{head}, chunk...)
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		return nil, fmt.Errorf("%s", strings.TrimSpace(err.Error()))
	}
	canonicalConstants(proto) // nan.go
	if err := checkConstantKeys(name, proto); err != nil {
		return nil, err
	}
	return proto, nil
}

// parseError turns gopher-lua's multi-line parse error into "file:line: message".
func parseError(name string, err error) error {
	if pe, ok := err.(*parse.Error); ok {
		msg := pe.Message
		if pe.Token != "" {
			msg += fmt.Sprintf(" near '%s'", pe.Token)
		}
		if pe.Pos.Line == parse.EOF {
			return fmt.Errorf("%s: at end of file: %s", name, msg)
		}
		return fmt.Errorf("%s:%d: %s", name, pe.Pos.Line, msg)
	}
	return fmt.Errorf("%s: %s", name, strings.Join(strings.Fields(err.Error()), " "))
}

// rewriter walks a chunk, replaces concatenations and checks nesting and
// reserved names.
type rewriter struct {
	name string
	err  error
	cost cost // what compiling will take (compilecost.go)
}

func (r *rewriter) fail(line int, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%s:%d: %s", r.name, line, fmt.Sprintf(format, args...))
	}
}

func (r *rewriter) deep(depth int, n ast.PositionHolder) bool {
	if depth > maxNesting*nestUnit {
		r.fail(n.Line(), "nesting deeper than %d levels", maxNesting)
		return true
	}
	return r.err != nil
}

func (r *rewriter) name1(line int, n string) {
	if n == concatName || n == lenName {
		r.fail(line, "the name %s is reserved", n)
	}
	if len(n) > maxConstantKey {
		// A global or a method of that name would be hashed by an
		// instruction that does not charge for it (fold.go).
		r.fail(line, "a name of %d bytes; names are limited to %d bytes", len(n), maxConstantKey)
	}
}

func (r *rewriter) stmts(list []ast.Stmt, depth int) {
	mark := r.scope() // a block: its locals end with it
	for _, s := range list {
		r.stmt(s, depth+nestUnit)
	}
	r.closeScope(mark)
}

func (r *rewriter) exprs(list []ast.Expr, depth int) {
	for i := range list {
		list[i] = r.expr(list[i], depth+nestUnit)
	}
}

func (r *rewriter) stmt(s ast.Stmt, depth int) {
	if r.deep(depth, s) {
		return
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		r.exprs(s.Lhs, depth)
		r.exprs(s.Rhs, depth)
	case *ast.LocalAssignStmt:
		for _, n := range s.Names {
			r.name1(s.Line(), n)
		}
		r.exprs(s.Exprs, depth)
		r.declare(len(s.Names), s)
	case *ast.FuncCallStmt:
		s.Expr = r.expr(s.Expr, depth)
	case *ast.DoBlockStmt:
		r.stmts(s.Stmts, depth)
	case *ast.WhileStmt:
		s.Condition = r.expr(s.Condition, depth)
		r.stmts(s.Stmts, depth)
	case *ast.RepeatStmt:
		s.Condition = r.expr(s.Condition, depth)
		r.stmts(s.Stmts, depth)
	case *ast.IfStmt:
		s.Condition = r.expr(s.Condition, depth)
		r.stmts(s.Then, depth)
		if len(s.Else) == 1 && isIf(s.Else[0]) {
			r.stmt(s.Else[0], depth+1) // elseif: a link of a chain
		} else {
			r.stmts(s.Else, depth)
		}
	case *ast.NumberForStmt:
		r.name1(s.Line(), s.Name)
		s.Init = r.expr(s.Init, depth)
		s.Limit = r.expr(s.Limit, depth)
		if s.Step != nil {
			s.Step = r.expr(s.Step, depth)
		}
		mark := r.scope()
		r.declare(4, s) // the variable and Lua 5.1's three hidden ones
		r.stmts(s.Stmts, depth)
		r.closeScope(mark)
	case *ast.GenericForStmt:
		for _, n := range s.Names {
			r.name1(s.Line(), n)
		}
		r.exprs(s.Exprs, depth)
		mark := r.scope()
		r.declare(3+len(s.Names), s) // and Lua 5.1's three hidden ones
		r.stmts(s.Stmts, depth)
		r.closeScope(mark)
	case *ast.FuncDefStmt:
		if s.Name != nil {
			r.name1(s.Line(), s.Name.Method)
			if s.Name.Method != "" {
				r.constant(constKey{str: true, s: s.Name.Method}, s)
			}
			s.Name.Func = r.expr(s.Name.Func, depth)
			if s.Name.Receiver != nil {
				s.Name.Receiver = r.expr(s.Name.Receiver, depth)
			}
		}
		r.function(s.Func, depth)
	case *ast.ReturnStmt:
		r.exprs(s.Exprs, depth)
	}
}

func (r *rewriter) function(f *ast.FunctionExpr, depth int) {
	if f == nil {
		return
	}
	params := 0
	if f.ParList != nil {
		for _, n := range f.ParList.Names {
			r.name1(f.Line(), n)
		}
		params = len(f.ParList.Names)
		if f.ParList.HasVargs {
			params++ // Lua 5.1's arg table
		}
	}
	r.enterFunc(f.Line(), params, f)
	r.stmts(f.Stmts, depth)
	r.leaveFunc()
}

func (r *rewriter) expr(e ast.Expr, depth int) ast.Expr {
	if e == nil || r.deep(depth, e) {
		return e
	}
	link := depth + 1 // the left operand of a chain of binary operators
	depth += nestUnit
	switch x := e.(type) {
	case *ast.NumberExpr:
		if v, ok := parseNumber(x.Value); ok {
			r.number(v, x)
		}
		return numeral(x) // fold.go
	case *ast.StringExpr:
		r.constant(constKey{str: true, s: x.Value}, x)
	case *ast.IdentExpr:
		r.name1(x.Line(), x.Value)
		r.lookup(x.Value, x)
	case *ast.AttrGetExpr:
		x.Object = r.expr(x.Object, depth)
		x.Key = longKey(r.expr(x.Key, depth))
	case *ast.TableExpr:
		for _, f := range x.Fields {
			if f.Key != nil {
				f.Key = longKey(r.expr(f.Key, depth))
			}
			f.Value = r.expr(f.Value, depth)
		}
	case *ast.FuncCallExpr:
		r.name1(x.Line(), x.Method)
		if x.Method != "" {
			r.constant(constKey{str: true, s: x.Method}, x)
		}
		if x.Func != nil {
			x.Func = r.expr(x.Func, depth)
		}
		if x.Receiver != nil {
			x.Receiver = r.expr(x.Receiver, depth)
		}
		r.exprs(x.Args, depth)
	case *ast.LogicalOpExpr:
		x.Lhs = r.expr(x.Lhs, chainDepth(x.Lhs, link, depth))
		x.Rhs = r.expr(x.Rhs, depth)
	case *ast.RelationalOpExpr:
		x.Lhs = r.expr(x.Lhs, chainDepth(x.Lhs, link, depth))
		x.Rhs = r.expr(x.Rhs, depth)
	case *ast.ArithmeticOpExpr:
		x.Lhs = r.expr(x.Lhs, chainDepth(x.Lhs, link, depth))
		x.Rhs = r.expr(x.Rhs, depth)
		return foldArith(x)
	case *ast.UnaryMinusOpExpr:
		x.Expr = r.expr(x.Expr, depth)
		return foldArith(x)
	case *ast.UnaryNotOpExpr:
		x.Expr = r.expr(x.Expr, depth)
	case *ast.UnaryLenOpExpr:
		x.Expr = r.expr(x.Expr, depth)
		if !countedLoopOK {
			// No dispatch table, so no lenOp: the checked call instead.
			return r.call(lenName, x, x.Expr)
		}
	case *ast.FunctionExpr:
		r.function(x, depth)
	case *ast.StringConcatOpExpr:
		// a .. b .. c is a .. (b .. c): one call for the whole right
		// spine, as Lua's CONCAT takes the whole chain in one instruction.
		args := []ast.Expr{r.expr(x.Lhs, depth)}
		rhs := x.Rhs
		for {
			next, ok := rhs.(*ast.StringConcatOpExpr)
			if !ok || r.deep(depth+len(args), next) {
				break
			}
			args = append(args, r.expr(next.Lhs, depth+len(args)))
			rhs = next.Rhs
		}
		args = append(args, r.expr(rhs, depth+len(args)))
		return r.call(concatName, x, args...)
	}
	return e
}

// isIf reports whether s is an if statement (an elseif, as an else part).
func isIf(s ast.Stmt) bool {
	_, ok := s.(*ast.IfStmt)
	return ok
}

// chainDepth is the depth at which to read lhs, the left operand of a
// binary operator: link when lhs is itself a binary operation (a chain
// such as a + b + c), depth otherwise.
func chainDepth(lhs ast.Expr, link, depth int) int {
	switch lhs.(type) {
	case *ast.ArithmeticOpExpr, *ast.LogicalOpExpr, *ast.RelationalOpExpr:
		return link
	}
	return depth
}

// call builds a call of one of the checked functions in place of an
// operator, keeping the operator's line for error messages.
func (r *rewriter) call(name string, at ast.Expr, args ...ast.Expr) ast.Expr {
	fn := &ast.IdentExpr{Value: name}
	fn.SetLine(at.Line())
	fn.SetLastLine(at.Line())
	call := &ast.FuncCallExpr{Func: fn, Args: args, AdjustRet: true}
	call.SetLine(at.Line())
	call.SetLastLine(at.LastLine())
	return call
}

// parseOnly parses src into a syntax tree, with the errors compileScript
// gives.
func parseOnly(name string, src []byte) ([]ast.Stmt, error) {
	chunk, err := parse.Parse(bytes.NewReader(src), name)
	if err != nil {
		return nil, parseError(name, err)
	}
	return chunk, nil
}
