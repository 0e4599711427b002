package bot

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// stuckConn is a bot that never reads: Send blocks until Close.
type stuckConn struct {
	closed chan struct{}
	once   sync.Once
	sends  int
	mu     sync.Mutex
}

func (c *stuckConn) Send([]byte) error {
	c.mu.Lock()
	c.sends++
	c.mu.Unlock()
	<-c.closed
	return ErrClosed
}

func (c *stuckConn) Receive(time.Time) ([]byte, error) {
	<-c.closed
	return nil, ErrClosed
}

func (c *stuckConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// TestNeverReads: a bot that does not read its input costs each round its
// deadline, is not written to again while the first write hangs, and is
// retired after MaxFaults rounds, which unblocks the write.
func TestNeverReads(t *testing.T) {
	conn := &stuckConn{closed: make(chan struct{})}
	timing := Timing{Round: 20 * time.Millisecond, MaxFaults: 3}
	c := NewController(conn, "bot", timing, nil)
	facts := &engine.Facts{Classes: []string{"bot"}}
	var problems []string
	var events []engine.Backstop
	timeouts := 0
	for round := 1; round <= 5; round++ {
		facts.Round = round
		turn := &engine.Turn{Facts: facts, Squares: []engine.Ready{{ID: 1}}, Intents: []engine.Intent{engine.WaitIntent}}
		c.SendTurn(turn)
		c.Turn(turn)
		timeouts += turn.Report.Timeouts
		for _, p := range turn.Report.Problems {
			problems = append(problems, p.Message)
		}
		events = append(events, turn.Report.Backstops...)
		if turn.Intents[0] != engine.WaitIntent {
			t.Fatalf("round %d: a square of a silent bot did not wait: %+v", round, turn.Intents[0])
		}
	}
	if timeouts != 3 || kinds(events) != "retired" {
		t.Fatalf("timeouts %d, events %q; want 3 and retired (problems %q)", timeouts, kinds(events), problems)
	}
	if !strings.Contains(problems[0], "has not read") || !strings.Contains(problems[1], "does not read its input") {
		t.Errorf("problems %q do not say the bot does not read", problems)
	}
	select {
	case <-conn.closed:
	default:
		t.Fatal("a retired bot was not closed")
	}
	conn.mu.Lock()
	defer conn.mu.Unlock()
	if conn.sends != 1 {
		t.Errorf("%d writes to a bot stuck in the first", conn.sends)
	}
}
