package bot

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{in: "python3 mybot.py", want: []string{"python3", "mybot.py"}},
		{in: `  node  "my bot.js"  --fast `, want: []string{"node", "my bot.js", "--fast"}},
		{in: `a 'b "c" $d' e\ f ""`, want: []string{"a", `b "c" $d`, "e f", ""}},
		{in: `a "b \" c"`, want: []string{"a", `b " c`}},
		{in: `a 'b`, err: "unclosed ' quote"},
		{in: `a \`, err: "ends with a backslash"},
		{in: "   ", err: "empty"},
		{in: "a\x1bb", err: "control character"},
	} {
		got, err := SplitCommand(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("SplitCommand(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Spec
		err  string
	}{
		{text: "# mine\ncommand: python3 mybot.py\nname: My Bot\n\n",
			want: Spec{ID: "mybot", File: "scripts/mybot.bot", Dir: "scripts", Name: "My Bot", Command: []string{"python3", "mybot.py"}, Transport: "stdio"}},
		{text: "transport: tcp\nconnect: 127.0.0.1:9000\n",
			want: Spec{ID: "mybot", File: "scripts/mybot.bot", Dir: "scripts", Transport: "tcp", Connect: "127.0.0.1:9000"}},
		{text: "command: x\ntransprt: tcp\n", err: `scripts/mybot.bot:2: unknown key "transprt"`},
		{text: "command: x\ncommand: y\n", err: "scripts/mybot.bot:2: command is given twice"},
		{text: "command x\n", err: `scripts/mybot.bot:1: "command x" is not key: value`},
		{text: "command: 'x\n", err: "scripts/mybot.bot:1: command: an unclosed ' quote"},
		{text: "command: x\ntransport: udp\n", err: `scripts/mybot.bot:2: transport "udp"`},
		{text: "transport: tcp\nconnect: 10.0.0.1:80\n", err: "scripts/mybot.bot:2: connect: \"10.0.0.1\" is not a loopback"},
		{text: "connect: 127.0.0.1:80\n", err: "connect needs transport: tcp"},
		{text: "name: x\n", err: "scripts/mybot.bot: no command"},
		{text: "command: x\nname: " + strings.Repeat("n", 65) + "\n", err: "name is 65 bytes long"},
		{text: strings.Repeat("#", MaxSpecBytes+1), err: "at most 4096"},
		{text: "command: \xff\n", err: "not UTF-8"},
	} {
		got, err := ParseSpec("scripts/mybot.bot", []byte(tc.text))
		if tc.err != "" {
			if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %+v, %v; want %+v", tc.text, got, err, tc.want)
		}
	}
}
