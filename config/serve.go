package config

import (
	"net"
	"strconv"
	"strings"
)

// Serve configures the SSH arena (`squarebattle serve`). Every limit the
// server enforces on strangers is a named value here, so an operator can
// read them all in one place; durations are whole seconds.
type Serve struct {
	// Listen is the TCP address the server listens on.
	Listen string `mapstructure:"listen" yaml:"listen" json:"listen"`
	// DataDir holds the host key, the uploads, the users and the replays;
	// "" means the squarebattle/serve folder of the user's data directory.
	DataDir string `mapstructure:"data_dir" yaml:"data_dir" json:"data_dir"`
	// HostKey is the ed25519 host key file; "" means host_ed25519 in DataDir.
	// It is created (mode 0600) when missing.
	HostKey string `mapstructure:"host_key" yaml:"host_key" json:"host_key"`

	Sessions             int `mapstructure:"sessions" yaml:"sessions" json:"sessions"`                                           // sessions at once, all clients
	SessionsPerIP        int `mapstructure:"sessions_per_ip" yaml:"sessions_per_ip" json:"sessions_per_ip"`                      // sessions at once from one address
	ConnectionsPerMinute int `mapstructure:"connections_per_minute" yaml:"connections_per_minute" json:"connections_per_minute"` // new connections per address per minute
	HandshakeTimeout     int `mapstructure:"handshake_timeout" yaml:"handshake_timeout" json:"handshake_timeout"`                // seconds from connecting to the first command
	IdleTimeout          int `mapstructure:"idle_timeout" yaml:"idle_timeout" json:"idle_timeout"`                               // seconds without input before a session ends
	MaxSession           int `mapstructure:"max_session" yaml:"max_session" json:"max_session"`                                  // seconds a session may last
	WriteTimeout         int `mapstructure:"write_timeout" yaml:"write_timeout" json:"write_timeout"`                            // seconds one write to a client may take
	UploadsPerHour       int `mapstructure:"uploads_per_hour" yaml:"uploads_per_hour" json:"uploads_per_hour"`                   // submits per user per hour
	PlayersPerUser       int `mapstructure:"players_per_user" yaml:"players_per_user" json:"players_per_user"`                   // player names one user may hold
	// NewUsersPerIPHour is how many keys from one address may claim a
	// user name (with their first submit or bot) in an hour; Users bounds
	// the user names in all. Keys cost nothing to make.
	NewUsersPerIPHour int `mapstructure:"new_users_per_ip_hour" yaml:"new_users_per_ip_hour" json:"new_users_per_ip_hour"`
	Users             int `mapstructure:"users" yaml:"users" json:"users"`
	PrivateBattles    int `mapstructure:"private_battles" yaml:"private_battles" json:"private_battles"` // private battles running at once; more wait
	// PrivateBattlesPerUser is how many private battles one user (one
	// key, whatever its sessions) may have running or waiting at once.
	PrivateBattlesPerUser int `mapstructure:"private_battles_per_user" yaml:"private_battles_per_user" json:"private_battles_per_user"`
	MaxSize               int `mapstructure:"max_size" yaml:"max_size" json:"max_size"`       // largest arena of a private battle
	MaxRounds             int `mapstructure:"max_rounds" yaml:"max_rounds" json:"max_rounds"` // longest private battle, in rounds
	FPS                   int `mapstructure:"fps" yaml:"fps" json:"fps"`                      // frame cap per viewer

	// The doors before a command runs (tui/ssh/doors.go): what one
	// connection and one session channel may hold before the server knows
	// what it is for.
	ChannelsPerConnection int `mapstructure:"channels_per_connection" yaml:"channels_per_connection" json:"channels_per_connection"` // session channels open at once on one connection
	EnvRequests           int `mapstructure:"env_requests" yaml:"env_requests" json:"env_requests"`                                  // environment variables one session may set
	EnvBytes              int `mapstructure:"env_bytes" yaml:"env_bytes" json:"env_bytes"`                                           // bytes of their names and values
	CommandTimeout        int `mapstructure:"command_timeout" yaml:"command_timeout" json:"command_timeout"`                         // seconds from a channel's opening to its command

	// The checks of uploads (tui/ssh/checks.go) running at once: in all,
	// from one address, for one key; more wait in a queue.
	Checks       int `mapstructure:"checks" yaml:"checks" json:"checks"`
	ChecksPerIP  int `mapstructure:"checks_per_ip" yaml:"checks_per_ip" json:"checks_per_ip"`
	ChecksPerKey int `mapstructure:"checks_per_key" yaml:"checks_per_key" json:"checks_per_key"`

	// Anonymous lets clients without a key (or with any key) watch;
	// uploads always need a key.
	Anonymous bool `mapstructure:"anonymous" yaml:"anonymous" json:"anonymous"`
	// Allowlist is an authorized_keys file: when set, only its keys may
	// upload players.
	Allowlist string `mapstructure:"allowlist" yaml:"allowlist" json:"allowlist"`
	// Admins is an authorized_keys file of keys that may stop battles and
	// remove players.
	Admins string `mapstructure:"admins" yaml:"admins" json:"admins"`

	// FeaturedPlayers are the class ids of the featured battle's teams,
	// separated by commas; "" picks from the starting players.
	FeaturedPlayers string `mapstructure:"featured_players" yaml:"featured_players" json:"featured_players"`
	FeaturedSize    int    `mapstructure:"featured_size" yaml:"featured_size" json:"featured_size"`       // 0 = arena.size
	FeaturedRounds  int    `mapstructure:"featured_rounds" yaml:"featured_rounds" json:"featured_rounds"` // 0 = rules.rounds
	FeaturedSeed    int64  `mapstructure:"featured_seed" yaml:"featured_seed" json:"featured_seed"`       // 0 = a new seed for every battle

	// Remote bots (`ssh HOST bot NAME`): connections at once, per user and
	// in all.
	BotConnectionsPerUser int `mapstructure:"bot_connections_per_user" yaml:"bot_connections_per_user" json:"bot_connections_per_user"`
	BotConnections        int `mapstructure:"bot_connections" yaml:"bot_connections" json:"bot_connections"`
	// Bots is the clock remote bots play under, in place of the bots
	// section: their round trip crosses a network, so they get more time
	// than a bot on the server's own machine (hello states it to them).
	Bots Bots `mapstructure:"bots" yaml:"bots" json:"bots"`

	// Ladder is the ranked battles the arena plays in the background.
	Ladder ServeLadder `mapstructure:"ladder" yaml:"ladder" json:"ladder"`
}

// DefaultServe returns the built-in serve section.
func DefaultServe() Serve {
	return Serve{
		Listen:                "127.0.0.1:2222",
		Sessions:              200,
		SessionsPerIP:         10,
		ConnectionsPerMinute:  30,
		HandshakeTimeout:      10,
		IdleTimeout:           900,
		MaxSession:            4 * 3600,
		WriteTimeout:          10,
		UploadsPerHour:        20,
		PlayersPerUser:        5,
		NewUsersPerIPHour:     30,
		Users:                 10_000,
		PrivateBattles:        2,
		PrivateBattlesPerUser: 1,
		MaxSize:               150,
		MaxRounds:             10000,
		FPS:                   15,

		ChannelsPerConnection: 10,
		EnvRequests:           16,
		EnvBytes:              4096,
		CommandTimeout:        10,

		Checks:       2,
		ChecksPerIP:  1,
		ChecksPerKey: 1,

		Anonymous: true,

		BotConnectionsPerUser: 4,
		BotConnections:        100,
		Bots:                  Bots{InitMS: 5000, RoundMS: 500, BankMS: 2000, MaxFaults: 10},

		Ladder: ServeLadder{Enabled: true, Teams: 4, Size: 32, Rounds: 500, BattlesKept: 20, DiskMiB: 2048, Ahead: 8, RescueSeconds: 300},
	}
}

// FeaturedIDs splits FeaturedPlayers into class ids.
func (s Serve) FeaturedIDs() []string {
	var ids []string
	for _, f := range strings.Split(s.FeaturedPlayers, ",") {
		if f = strings.TrimSpace(f); f != "" {
			ids = append(ids, f)
		}
	}
	return ids
}

// check validates what the bounded integer keys cannot: the address.
func (s Serve) check() []*FieldError {
	var errs []*FieldError
	host, port, err := net.SplitHostPort(s.Listen)
	if err == nil {
		n, perr := strconv.Atoi(port)
		if perr != nil || n < 0 || n > 65535 {
			err = perr
			if err == nil {
				err = strconv.ErrRange
			}
		}
	}
	if err != nil || strings.ContainsAny(host, " \t\n") {
		errs = append(errs, &FieldError{Key: "serve.listen", Value: s.Listen, Reason: "must be HOST:PORT, e.g. 127.0.0.1:2222 or :2222"})
	}
	if s.FeaturedSize == 1 {
		errs = append(errs, &FieldError{Key: "serve.featured_size", Value: int64(s.FeaturedSize), Reason: "must be 0 (arena.size) or between 2 and 2000"})
	}
	return errs
}
