package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

//go:embed default.yaml
var defaultYAML []byte

// DefaultYAML returns the commented default configuration file
// (config/default.yaml). The caller may modify the returned slice.
func DefaultYAML() []byte {
	return bytes.Clone(defaultYAML)
}

// YAML renders c in the layout of the configuration file (no comments).
// Loading the output gives c back.
func (c Config) YAML() []byte {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		// Config holds only ints, bools and strings; encoding cannot fail.
		panic("config: encoding YAML: " + err.Error())
	}
	if err := enc.Close(); err != nil {
		panic("config: encoding YAML: " + err.Error())
	}
	return buf.Bytes()
}

// sourced is a value together with where it was set.
type sourced struct {
	value  any // int64, bool or string
	source string
	line   int
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a yaml.v3 error into a *SyntaxError, pulling out the
// line number when the message carries one.
func syntaxError(file string, err error) *SyntaxError {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &SyntaxError{File: file, Line: line, Msg: "malformed YAML: " + m[2]}
	}
	if rest, ok := strings.CutPrefix(msg, "yaml: "); ok {
		// yaml.v3 leaves the line out when the problem is on the first line.
		return &SyntaxError{File: file, Line: 1, Msg: "malformed YAML: " + rest}
	}
	return &SyntaxError{File: file, Msg: "malformed YAML: " + msg}
}

// parseFile reads the configuration file text. It checks the YAML itself
// (rather than leaving it to viper) so that unknown keys, wrong types and
// syntax errors are reported with the file name and line. It returns the
// values found, keyed by dotted key, and every problem in document order.
func parseFile(file string, data []byte) (map[string]sourced, []error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // empty file
		}
		return nil, []error{syntaxError(file, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, []error{syntaxError(file, err)}
		}
		return nil, []error{&SyntaxError{File: file, Line: extra.Line, Msg: "more than one YAML document"}}
	}

	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		root = root.Content[0]
	}
	root = deref(root)
	if isNull(root) {
		return nil, nil // a file holding only comments
	}
	if root.Kind != yaml.MappingNode {
		return nil, []error{&SyntaxError{File: file, Line: root.Line,
			Msg: "the top level must be a mapping of keys, not " + describe(root)}}
	}

	p := fileParser{file: file, values: map[string]sourced{}}
	p.mapping(root, "")
	return p.values, p.errs
}

type fileParser struct {
	file   string
	values map[string]sourced
	errs   []error
}

// mapping walks the pairs of a mapping node; prefix is "" at the top level
// or "section." inside a section.
func (p *fileParser) mapping(n *yaml.Node, prefix string) {
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := deref(n.Content[i]), deref(n.Content[i+1])
		if kn.Kind != yaml.ScalarNode {
			p.errs = append(p.errs, &SyntaxError{File: p.file, Line: kn.Line,
				Msg: "keys must be plain names, not " + describe(kn)})
			continue
		}
		name := prefix + kn.Value
		if first, dup := seen[kn.Value]; dup {
			p.errs = append(p.errs, &SyntaxError{File: p.file, Line: kn.Line,
				Msg: fmt.Sprintf("key %q appears twice (first on line %d)", name, first)})
			continue
		}
		seen[kn.Value] = kn.Line

		switch {
		case prefix == "" && name == OptionsSection:
			p.options(vn)
		case isSection(name):
			if isNull(vn) {
				continue // "arena:" with nothing under it
			}
			if vn.Kind != yaml.MappingNode {
				p.errs = append(p.errs, &FieldError{Key: name, Source: p.file, Line: vn.Line,
					Reason: "must be a mapping with keys " + sectionKeys(name) + ", not " + describe(vn)})
				continue
			}
			p.mapping(vn, name+".")
		case lookupKey(name) != nil:
			p.leaf(lookupKey(name), vn)
		default:
			p.errs = append(p.errs, &UnknownKeyError{Key: name, Source: p.file, Line: kn.Line,
				Suggestion: suggestKey(name)})
		}
	}
}

// leaf converts the value node of one key, strictly: an integer key takes
// a YAML integer (or a float with no fractional part), a boolean key takes
// true/false, a string key takes any scalar (null meaning "").
func (p *fileParser) leaf(k *keySpec, n *yaml.Node) {
	bad := func(value any, reason string) {
		p.errs = append(p.errs, &FieldError{Key: k.name, Value: value, Reason: reason, Source: p.file, Line: n.Line})
	}
	if n.Kind != yaml.ScalarNode {
		bad(nil, k.kind.expect()+", not "+describe(n))
		return
	}
	tag := n.ShortTag()
	var v any
	switch k.kind {
	case kindString:
		if tag == "!!null" {
			v = ""
		} else {
			v = n.Value
		}
	case kindBool:
		var b bool
		if tag != "!!bool" || n.Decode(&b) != nil {
			bad(n.Value, k.kind.expect())
			return
		}
		v = b
	case kindInt:
		var i int64
		switch tag {
		case "!!int":
			if n.Decode(&i) != nil {
				bad(n.Value, "is out of range")
				return
			}
		case "!!float":
			var f float64
			if n.Decode(&f) != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
				bad(n.Value, k.kind.expect())
				return
			}
			if f < -(1<<63) || f >= 1<<63 {
				bad(n.Value, "is out of range")
				return
			}
			i = int64(f)
		default:
			if tag == "!!null" {
				bad(nil, k.kind.expect()+", but is empty")
			} else {
				bad(n.Value, k.kind.expect())
			}
			return
		}
		if reason := k.fits(i); reason != "" {
			bad(n.Value, reason)
			return
		}
		v = i
	}
	p.values[k.name] = sourced{value: v, source: p.file, line: n.Line}
}

// deref follows YAML aliases (*name) to the anchored node.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "an empty value"
		}
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "a YAML node of another kind"
}

// OptionsSection is the section holding a rule mod's options.
const OptionsSection = "options"

// optionName is what an option may be called.
var optionName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// IsOptionName reports whether s may name a rule mod's option.
func IsOptionName(s string) bool { return optionName.MatchString(s) }

// options reads the options section: any name, any scalar value, kept as
// text for the game to check.
func (p *fileParser) options(n *yaml.Node) {
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.errs = append(p.errs, &FieldError{Key: OptionsSection, Source: p.file, Line: n.Line,
			Reason: "must be a mapping of option names to values, not " + describe(n)})
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := deref(n.Content[i]), deref(n.Content[i+1])
		name := OptionsSection + "." + kn.Value
		switch {
		case kn.Kind != yaml.ScalarNode || !optionName.MatchString(kn.Value):
			p.errs = append(p.errs, &SyntaxError{File: p.file, Line: kn.Line,
				Msg: "an option name is lower case letters, digits and _, not " + describe(kn)})
		case vn.Kind != yaml.ScalarNode || isNull(vn):
			p.errs = append(p.errs, &FieldError{Key: name, Source: p.file, Line: vn.Line,
				Reason: "must be a number, true/false or a string, not " + describe(vn)})
		default:
			p.values[name] = sourced{value: vn.Value, source: p.file, line: vn.Line}
		}
	}
}
