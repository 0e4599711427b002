package bot

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// scanLines are bot lines, good and bad, that the scanner and
// encoding/json must read alike.
var scanLines = []string{
	`{"type":"actions","round":3,"orders":[5,"me",9,"w"]}`,
	` { "type" : "actions" , "round" : 3 , "orders" : [ ] } `,
	`{"type":"actions","round":3.0,"orders":[],"note":{"a":[1,2,{"b":null}],"c":"\u00e9\n"},"x":true,"y":false,"z":-1.5e+3}`,
	`{"type":"resync"}`,
	`{"type":"ready","name":"Bot \"One\"","protocol":2}`,
	`{"type":"actions","round":3,"round":4,"orders":[]}`,
	`{"TYPE":"actions","round":3,"orders":[]}`,
	`{"type":"actions","Round":3,"orders":[]}`,
	`{"type":"actions","ro\u0075nd":3,"orders":[]}`,
	`{"type":"act\u0069ons","round":3,"orders":[]}`,
	`{"type":"dance","round":3}`,
	`{"type":3}`,
	`{}`,
	`[]`,
	`{"type":"actions","round":3,"orders":[5,"me",]}`,
	`{"type":"actions","round":3,"orders":[5,"me"]`,
	`{"type":"actions","round":03,"orders":[]}`,
	`{"type":"actions","round":3,"orders":[1.]}`,
	`{"type":"actions","round":3,"orders":["\x"]}`,
	"{\"type\":\"actions\",\"round\":3,\"orders\":[\"\xff\"]}",
	"{\"type\":\"actions\",\"round\":3,\"orders\":[\"a\tb\"]}",
	`{"type":"actions","round":3,"orders":[]} x`,
	`{"type":"actions","round":3,"orders":[tru]}`,
	`{"type":"actions","round":3,"orders":[` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `]}`,
	`{"type":"actions","round":3,"ordersx":[]}`,
}

// TestScanLine: whatever the scanner reads, encoding/json reads the same
// way; what it does not, parseLine2 still reads as parseLine does.
func TestScanLine(t *testing.T) {
	fast := 0
	for _, line := range scanLines {
		slow, slowErr := parseKinds([]byte(line), true)
		if m, ok := scanLine([]byte(line)); ok {
			fast++
			if slowErr != nil || !reflect.DeepEqual(normal(m), normal(slow)) {
				t.Errorf("%s: scanned %+v, encoding/json %+v, %v", line, m, slow, slowErr)
			}
		}
		m, err := parseLine2([]byte(line))
		if (err == nil) != (slowErr == nil) || err == nil && !reflect.DeepEqual(normal(m), normal(slow)) {
			t.Errorf("%s: parseLine2 %+v, %v; encoding/json %+v, %v", line, m, err, slow, slowErr)
		}
	}
	if fast < 5 {
		t.Errorf("only %d lines read quickly", fast)
	}
}

// FuzzScanLine: the scanner never accepts what encoding/json refuses, and
// reads what it accepts the same way.
func FuzzScanLine(f *testing.F) {
	for _, line := range scanLines {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, ok := scanLine(line)
		if !ok {
			return
		}
		slow, err := parseKinds(line, true)
		if err != nil || !reflect.DeepEqual(normal(m), normal(slow)) {
			t.Fatalf("%q: scanned %+v, encoding/json %+v, %v", line, m, slow, err)
		}
	})
}

// normal compacts raw values, which the two readers may keep with or
// without white space around them.
func normal(m inbound) inbound {
	for _, raw := range []*json.RawMessage{&m.Name, &m.Protocol, &m.Round, &m.Batch, &m.Actions, &m.Orders, &m.Answers} {
		if len(*raw) == 0 {
			*raw = nil
			continue
		}
		var v any
		if json.Unmarshal(*raw, &v) == nil {
			*raw, _ = json.Marshal(v)
		}
	}
	return m
}

// TestDecodeOrders: what a protocol-2 answer's orders make of a turn, and
// the one line that says why a list is rejected whole.
func TestDecodeOrders(t *testing.T) {
	move := func(d engine.Direction) engine.Intent {
		return engine.Intent{Action: engine.Move, Dir: d, Child: engine.NoClass, Become: engine.NoClass}
	}
	bad := engine.Intent{Action: engine.Wait, Child: engine.NoClass, Become: engine.NoClass, Fault: engine.FaultError}
	w := engine.WaitIntent
	for _, tc := range []struct {
		orders string
		want   []engine.Intent // nil: rejected
		err    string
	}{
		{orders: `[]`, want: []engine.Intent{w, w, w}},
		{orders: `[5,"me",9,"rW",12,"ANE"]`, want: []engine.Intent{move(engine.E),
			{Action: engine.Replicate, Dir: engine.W, Child: 1, Become: engine.NoClass},
			{Action: engine.Attack, Dir: engine.NE, Child: engine.NoClass, Become: engine.NoClass}}},
		{orders: `[12,"ms",5,"w",9.0,"m\u0073"]`, want: []engine.Intent{w, move(engine.S), move(engine.S)}},
		{orders: `[5,"north",9,"m",12,3]`, want: []engine.Intent{bad, bad, bad}},
		{orders: `[5,"wait",9,"mnn",12,""]`, want: []engine.Intent{bad, bad, bad}},
		{orders: `{"5":"me"}`, err: `"orders" is not a list`},
		{orders: `[5,"me",9]`, err: "orders[2]: square 9 has no order after it"},
		{orders: `["5","me"]`, err: `orders[0]: "5" is not a square id`},
		{orders: `[6,"me"]`, err: "orders[0]: square 6 is not one of this round's squares"},
		{orders: `[5,"me",5,"w"]`, err: "orders[2]: square 5 has two orders"},
		{orders: ``, err: `no "orders"`},
	} {
		c := NewControllerProtocol(nil, "refbot", testTiming(), Protocol2, nil)
		c.class = 1
		turn := &engine.Turn{Facts: &engine.Facts{Round: 4, Classes: []string{"explorer", "refbot"}},
			Squares: []engine.Ready{{ID: 5, Class: 1}, {ID: 9, Class: 1}, {ID: 12, Class: 1}},
			Intents: []engine.Intent{w, w, w}}
		err := c.decode2([]byte(tc.orders), turn)
		if tc.want == nil {
			if !errors.Is(err, ErrMalformed) || err.Error() != tc.err {
				t.Errorf("%s: err %v, want %q", tc.orders, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(turn.Intents, tc.want) {
			t.Errorf("%s: intents %+v, err %v; want %+v", tc.orders, turn.Intents, err, tc.want)
		}
		for _, p := range turn.Report.Problems {
			if !strings.HasPrefix(p.Message, "bot: round 4: orders[") || !strings.Contains(p.Message, "unknown order") {
				t.Errorf("%s: problem %q", tc.orders, p.Message)
			}
		}
	}
}

// scriptConn answers hello with one line.
type scriptConn struct {
	hello []byte
	ready string
}

func (c *scriptConn) Send(line []byte) error {
	c.hello = append([]byte(nil), line...)
	return nil
}
func (c *scriptConn) Receive(time.Time) ([]byte, error) { return []byte(c.ready), nil }
func (c *scriptConn) Close() error                      { return nil }

// TestHandshake: hello offers protocol 2 for SquareBattle only, Greet's
// hello is what it always was, and ready chooses among what was offered.
func TestHandshake(t *testing.T) {
	for _, tc := range []struct {
		greet        bool // Greet rather than Handshake
		kind, ready  string
		offer, proto string // "protocols" in hello; the protocol chosen
		err          string
	}{
		{kind: KindSquares, ready: `{"type":"ready","protocol":2}`, offer: "[1,2]", proto: "2"},
		{kind: KindSquares, ready: `{"type":"ready"}`, offer: "[1,2]", proto: "1"},
		{kind: KindSquares, ready: `{"type":"ready","protocol":1}`, offer: "[1,2]", proto: "1"},
		{kind: KindSquares, ready: `{"type":"ready","protocol":3}`, offer: "[1,2]", err: `"protocol" is 3; hello offered [1 2]`},
		{kind: KindSquares, ready: `{"type":"ready","protocol":"2"}`, offer: "[1,2]", err: `"protocol" is "2"`},
		{kind: KindCalls, ready: `{"type":"ready","protocol":2}`, err: `"protocol" is 2; hello offered [1]`},
		{kind: KindCalls, ready: `{"type":"ready"}`, proto: "1"},
		{greet: true, kind: KindSquares, ready: `{"type":"ready","protocol":2}`, err: `"protocol" is 2; hello offered [1]`},
		{greet: true, kind: KindSquares, ready: `{"type":"ready","name":"x"}`, proto: "1"},
	} {
		conn := &scriptConn{ready: tc.ready}
		var g Greeting
		var err error
		if tc.greet {
			g.Protocol = Protocol
			g.Name, err = Greet(conn, Hello{Kind: tc.kind}, testTiming())
		} else {
			g, err = Handshake(conn, Hello{Kind: tc.kind}, testTiming())
		}
		var hello map[string]any
		json.Unmarshal(conn.hello, &hello)
		offer, _ := json.Marshal(hello["protocols"])
		if want := tc.offer; want == "" && hello["protocols"] != nil || want != "" && string(offer) != want {
			t.Errorf("%s %s: hello offers %s, want %q", tc.kind, tc.ready, offer, want)
		}
		if hello["protocol"] != 1.0 {
			t.Errorf("hello says protocol %v", hello["protocol"])
		}
		if tc.err != "" {
			if !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %s: err %v, want %q", tc.kind, tc.ready, err, tc.err)
			}
			continue
		}
		if err != nil || tc.proto != string(rune('0'+g.Protocol)) {
			t.Errorf("%s %s: %+v, %v; want protocol %s", tc.kind, tc.ready, g, err, tc.proto)
		}
	}
}

// TestReadyName: the name a bot gives itself in ready shows every
// character it holds (nothing invisible hides in it, nothing steers the
// terminal), is cut to MaxNameBytes, and may not read as another team's
// name (case, look-alike letters, invisible characters): then the bot
// keeps the name it was listed by ("").
func TestReadyName(t *testing.T) {
	players := []string{"Explorer", "mybot", "Wanderer"} // the bot is team 1
	for _, tc := range []struct {
		name, ready string
		want        string
	}{
		{"plain", `{"type":"ready","name":"My Bot"}`, "My Bot"},
		{"its own listed name", `{"type":"ready","name":"MyBot"}`, "MyBot"},
		{"none", `{"type":"ready"}`, ""},
		{"another team's", `{"type":"ready","name":"Explorer"}`, ""},
		{"another team's, other case", `{"type":"ready","name":"EXPLORER"}`, ""},
		{"another team's, zero-width space", `{"type":"ready","name":"Expl\u200borer"}`, ""},
		{"another team's, Cyrillic", `{"type":"ready","name":"\u0415x\u0440lorer"}`, ""},
		{"another team's, full width", `{"type":"ready","name":"\uff37anderer"}`, ""},
		{"another team's, tag characters", `{"type":"ready","name":"Wanderer\udb40\udc41"}`, ""},
		{"zero-width space", `{"type":"ready","name":"Ze\u200bd"}`, `Ze\u200bd`},
		{"word joiner and soft hyphen", `{"type":"ready","name":"a\u2060b\u00adc"}`, `a\u2060b\u00adc`},
		{"bidi override", `{"type":"ready","name":"\u202egnirts"}`, `\u202egnirts`},
		{"escape", `{"type":"ready","name":"\u001b[2Jx"}`, `\x1b[2Jx`},
		{"long", `{"type":"ready","name":"` + strings.Repeat("é", 100) + `"}`, strings.Repeat("é", 32)},
		{"long and invisible", `{"type":"ready","name":"` + strings.Repeat("\u200b", 40) + `"}`, strings.Repeat(`\u200b`, 10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := &scriptConn{ready: tc.ready}
			g, err := Handshake(conn, Hello{Kind: KindSquares, Team: 1, Players: players}, testTiming())
			if err != nil {
				t.Fatal(err)
			}
			if g.Name != tc.want {
				t.Errorf("name %q, want %q", g.Name, tc.want)
			}
			if len(g.Name) > MaxNameBytes || !engine.IsSafeText(g.Name) {
				t.Errorf("name %q: longer than %d bytes or unsafe", g.Name, MaxNameBytes)
			}
		})
	}
}
