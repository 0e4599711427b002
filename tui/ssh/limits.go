package ssh

import (
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Limits are the bounds the server puts on clients (config's serve
// section, in Go units). Zero values are not "unlimited": New refuses
// them, except where noted.
type Limits struct {
	Sessions             int           // sessions open at once
	SessionsPerIP        int           // sessions open at once from one address
	ConnectionsPerMinute int           // new TCP connections per address per minute
	Handshake            time.Duration // from accept to the first session
	Idle                 time.Duration // without input before a session ends
	MaxSession           time.Duration // the longest a session may last
	Write                time.Duration // the longest one write to a client may take
	UploadsPerHour       int           // submits per user per hour (0: uploads off)
	PlayersPerUser       int           // player names one user may hold
	NewUsersPerIPHour    int           // keys from one address that may claim a user name in an hour (0: none)
	Users                int           // user names the server binds in all (0: no bound)
	ScriptBytes          int           // the largest upload (limits.script_bytes)
	FPS                  int           // frames per second drawn for each viewer

	// The doors before a command (doors.go) and the checks (checks.go).
	ChannelsPerConn int           // session channels open at once on one connection
	EnvRequests     int           // environment variables one session may set (0: none)
	EnvBytes        int           // bytes of their names and values (0: none)
	Command         time.Duration // from a channel's opening to its command
	Checks          int           // checks of uploads running at once
	ChecksPerIP     int           // of them, for one address
	ChecksPerKey    int           // of them, for one key
}

func (l Limits) check() error {
	switch {
	case l.Sessions < 1, l.SessionsPerIP < 1, l.ConnectionsPerMinute < 1:
		return fmt.Errorf("ssh: session and connection limits must be at least 1")
	case l.Handshake <= 0, l.Idle <= 0, l.MaxSession <= 0, l.Write <= 0:
		return fmt.Errorf("ssh: timeouts must be positive")
	case l.ScriptBytes < 1, l.FPS < 1:
		return fmt.Errorf("ssh: script bytes and fps must be at least 1")
	case l.UploadsPerHour < 0, l.PlayersPerUser < 0, l.NewUsersPerIPHour < 0, l.Users < 0:
		return fmt.Errorf("ssh: upload and user limits must not be negative")
	}
	return nil
}

// addrKey is what per-address limits count by: the IPv4 address, or the
// /64 an IPv6 address belongs to (one host usually holds a whole /64, so
// counting single IPv6 addresses would count nothing).
func addrKey(a net.Addr) string {
	var ip netip.Addr
	switch t := a.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(t.IP)
	default:
		if ap, err := netip.ParseAddrPort(a.String()); err == nil {
			ip = ap.Addr()
		}
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// gate counts connections and sessions, in total and per address, and
// the rate of new connections per address (a token bucket each, refilled
// at ConnectionsPerMinute per minute). Its maps hold only addresses with
// something open or a bucket not yet full, so memory follows the clients
// actually connected.
type gate struct {
	l Limits

	mu       sync.Mutex
	conns    int
	connsBy  map[string]int
	sessions int
	sessBy   map[string]int
	buckets  map[string]*bucket
	swept    time.Time
	now      func() time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newGate(l Limits) *gate {
	return &gate{l: l, connsBy: map[string]int{}, sessBy: map[string]int{}, buckets: map[string]*bucket{}, now: time.Now}
}

// connect admits a new TCP connection from key, or says why not.
func (g *gate) connect(key string) (ok bool, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	g.sweep(now)
	rate := float64(g.l.ConnectionsPerMinute)
	b := g.buckets[key]
	if b == nil {
		b = &bucket{tokens: rate, at: now}
		g.buckets[key] = b
	}
	b.tokens = min(rate, b.tokens+now.Sub(b.at).Minutes()*rate)
	b.at = now
	switch {
	case b.tokens < 1:
		return false, fmt.Sprintf("more than %d new connections a minute from your address; wait a minute", g.l.ConnectionsPerMinute)
	case g.conns >= g.l.Sessions:
		return false, fmt.Sprintf("the server is full (%d connections); try again later", g.l.Sessions)
	case g.connsBy[key] >= g.l.SessionsPerIP:
		return false, fmt.Sprintf("%d connections from your address are open already", g.l.SessionsPerIP)
	}
	b.tokens--
	g.conns++
	g.connsBy[key]++
	return true, ""
}

func (g *gate) disconnect(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conns--
	if g.connsBy[key]--; g.connsBy[key] <= 0 {
		delete(g.connsBy, key)
	}
}

// open admits a session (an SSH channel) from key, or says why not.
func (g *gate) open(key string) (ok bool, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.sessions >= g.l.Sessions:
		return false, fmt.Sprintf("the server is full (%d sessions); try again later", g.l.Sessions)
	case g.sessBy[key] >= g.l.SessionsPerIP:
		return false, fmt.Sprintf("%d sessions from your address are open already (serve.sessions_per_ip)", g.l.SessionsPerIP)
	}
	g.sessions++
	g.sessBy[key]++
	return true, ""
}

func (g *gate) close(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sessions--
	if g.sessBy[key]--; g.sessBy[key] <= 0 {
		delete(g.sessBy, key)
	}
}

// counts returns the open connections and sessions.
func (g *gate) counts() (conns, sessions int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.conns, g.sessions
}

// sweep forgets buckets that have refilled, at most once a minute.
func (g *gate) sweep(now time.Time) {
	if now.Sub(g.swept) < time.Minute {
		return
	}
	g.swept = now
	for k, b := range g.buckets {
		if now.Sub(b.at) >= time.Minute {
			delete(g.buckets, k)
		}
	}
}

// uploads counts submits per key over the last hour. Its map holds only
// keys that submitted within the hour (window's sweep), so memory follows
// the submits of the last hour, not every key that ever submitted.
type uploads struct{ window }

func newUploads(max int) *uploads { return &uploads{newWindow(max)} }

// take records one upload by key, or returns how long until one is
// allowed.
func (u *uploads) take(key string) (ok bool, wait time.Duration) { return u.window.take(key, "") }
