package luabind

import (
	"fmt"
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// Compile-time work that keeps the VM's promises: constant arithmetic
// folded with the VM's own functions, and no long string constant used as
// a key by an instruction that is not charged for it.

// foldArith folds arithmetic on numeric constants the way the VM computes
// it at run time (arith.go), so that `7.3 % 2.1` or `2 ^ 0.5` written in a
// script gives the same bits as the same operation on variables, on every
// machine. gopher-lua's compiler would fold them itself with its own
// modulo and math.Pow; after this pass, the only constant operations left
// for it are the divisions below that spell a non-finite result, which are
// exact in IEEE arithmetic.
func foldArith(e ast.Expr) ast.Expr {
	var v float64
	switch x := e.(type) {
	case *ast.UnaryMinusOpExpr:
		a, ok := numConst(x.Expr)
		if !ok {
			return e
		}
		v = -a
	case *ast.ArithmeticOpExpr:
		a, ok1 := numConst(x.Lhs)
		b, ok2 := numConst(x.Rhs)
		if !ok1 || !ok2 {
			return e
		}
		op, ok := arithOpcodes[x.Operator]
		if !ok {
			return e
		}
		v = arith(op, a, b)
		switch {
		case v == v:
		case a != a:
			v = a // as the machine's arithmetic keeps a NaN operand
		case b != b:
			v = b
		default:
			v = machineNaN // made here, as 0/0 is (nan.go)
		}
	default:
		return e
	}
	return numberExpr(v, e)
}

var arithOpcodes = map[string]int{"+": lua.OP_ADD, "-": lua.OP_SUB, "*": lua.OP_MUL, "/": lua.OP_DIV, "%": lua.OP_MOD, "^": lua.OP_POW}

// numConst is the value of a numeral as Lua 5.1 reads it (numbers.go).
func numConst(e ast.Expr) (float64, bool) {
	if d, ok := e.(*ast.ArithmeticOpExpr); ok && d.Operator == "/" {
		// One of numberExpr's non-finite values: any other division of
		// numerals was folded before its parent was looked at.
		a, ok1 := numConst(d.Lhs)
		b, ok2 := numConst(d.Rhs)
		return a / b, ok1 && ok2
	}
	n, ok := e.(*ast.NumberExpr)
	if !ok {
		return 0, false
	}
	if f, ok := parseNumber(n.Value); ok {
		return f, true
	}
	return machineNaN, true
}

// numeral is a numeral of the script rewritten so that gopher-lua's
// compiler reads the value Lua 5.1 reads: gopher-lua reads "010" as octal
// and "1e309" as NaN, Lua as 10 and infinity.
func numeral(n *ast.NumberExpr) ast.Expr {
	f, ok := parseNumber(n.Value)
	if !ok {
		return n // the lexer's numeral, as gopher-lua reads it
	}
	return numberExpr(f, n)
}

// numberExpr is an expression the compiler turns into exactly v: a
// numeral that reads back as v, or for a non-finite v a division of
// numerals that the compiler folds into it.
func numberExpr(v float64, at ast.Expr) ast.Expr {
	num := func(s string) *ast.NumberExpr {
		n := &ast.NumberExpr{Value: s}
		n.SetLine(at.Line())
		n.SetLastLine(at.LastLine())
		return n
	}
	div := func(a, b string) ast.Expr {
		d := &ast.ArithmeticOpExpr{Operator: "/", Lhs: num(a), Rhs: num(b)}
		d.SetLine(at.Line())
		d.SetLastLine(at.LastLine())
		return d
	}
	switch {
	case math.IsNaN(v) && math.Signbit(v) != math.Signbit(machineNaN):
		// 0/0 negated, which canonicalConstants (nan.go) turns into
		// posNaN: the folds here compute with this machine's NaNs.
		neg := &ast.UnaryMinusOpExpr{Expr: div("0", "0")}
		neg.SetLine(at.Line())
		neg.SetLastLine(at.LastLine())
		return neg
	case math.IsNaN(v):
		return div("0", "0")
	case math.IsInf(v, 1):
		return div("1", "0")
	case math.IsInf(v, -1):
		return div("-1", "0")
	case v == 0 && math.Signbit(v):
		return num("-0.0") // "-0" would read as the integer 0
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if _, err := strconv.ParseInt(s, 0, 64); err != nil {
		if f, err := strconv.ParseFloat(s, 64); err != nil || f != v {
			panic(fmt.Sprintf("luabind: %s does not read back as %v", s, v))
		}
	}
	return num(s)
}

// longKey turns a string literal used as a key into an expression the
// compiler cannot make a constant key of, when the literal is long enough
// for hashing it to count: `t["…"]` then compiles to GETTABLE, which
// charges its key's length (index.go), instead of GETTABLEKS, which does
// not. The literal is still loaded as a constant: `("…" or nil)`.
func longKey(e ast.Expr) ast.Expr {
	s, ok := e.(*ast.StringExpr)
	if !ok || len(s.Value) < maxConstantKey {
		return e
	}
	nilv := &ast.NilExpr{}
	nilv.SetLine(e.Line())
	nilv.SetLastLine(e.LastLine())
	or := &ast.LogicalOpExpr{Operator: "or", Lhs: e, Rhs: nilv}
	or.SetLine(e.Line())
	or.SetLastLine(e.LastLine())
	return or
}

// maxConstantKey is the longest string constant that GETGLOBAL,
// SETGLOBAL, GETTABLEKS, SETTABLEKS and SELF may use as a key: hashing it
// costs about what one instruction does.
const maxConstantKey = 256

// checkConstantKeys refuses a compiled chunk in which an instruction that
// is not charged for hashing its key uses a string constant longer than
// maxConstantKey: a global or field or method name that long. (String
// literals used as keys were already turned into charged lookups by
// longKey.)
func checkConstantKeys(name string, p *lua.FunctionProto) error {
	for pc, inst := range p.Code {
		var k lua.LValue
		switch int(inst >> 26) {
		case lua.OP_GETGLOBAL, lua.OP_SETGLOBAL:
			k = p.Constants[inst&0x3ffff]
		case lua.OP_GETTABLEKS, lua.OP_SELF:
			k = rkConst(p, argC(inst))
		case lua.OP_SETTABLEKS:
			k = rkConst(p, argB(inst))
		}
		if s, ok := k.(lua.LString); ok && len(s) > maxConstantKey {
			line := 0
			if pc < len(p.DbgSourcePositions) {
				line = p.DbgSourcePositions[pc]
			}
			return fmt.Errorf("%s:%d: a name of %d bytes; names are limited to %d bytes", name, line, len(s), maxConstantKey)
		}
	}
	for _, child := range p.FunctionPrototypes {
		if err := checkConstantKeys(name, child); err != nil {
			return err
		}
	}
	return nil
}
