---@meta squarebattle
-- Type definitions of the SquareBattle player API for lua-language-server.
-- This file is never run: it only tells your editor what the game provides.
-- See docs/scripting.md for the full guide.

---A direction, numbered clockwise from the north-west corner. It also indexes
---a square's view: `view[N]` is the cell to the north.
---@alias Direction
---| 1 # NW
---| 2 # N
---| 3 # NE
---| 4 # E
---| 5 # SE
---| 6 # S
---| 7 # SW
---| 8 # W

---A direction given by name instead of number (any letter case is accepted).
---@alias DirectionName "NW"|"N"|"NE"|"E"|"SE"|"S"|"SW"|"W"|"nw"|"n"|"ne"|"e"|"se"|"s"|"sw"|"w"

---What a square does this round (any letter case is accepted).
---@alias Action
---| "wait"      # stay put
---| "move"      # step into the neighbouring cell
---| "attack"    # kill whatever stands in the neighbouring cell at the end of the round
---| "replicate" # create a new square in the neighbouring cell, then sit still

---A cell of a view: `EMPTY` (-1), `WALL` (-2, only when the arena does not
---wrap), or the number (0, 1, ...) of the team whose square stands there.
---Your own squares show your own team number.
---@alias Cell integer

---The 8 neighbouring cells as they were at the start of the round, indexed by
---`Direction` (`view[1]` is NW ... `view[8]` is W). The table is reused for
---every call: read it, do not keep it.
---@alias View Cell[]

---Private data of one square, kept from round to round. A starting square
---begins with an empty table; a child begins with a copy of the data its
---parent returned.
---@alias SquareData table<any, any>

---North-west: row + 1, column - 1.
---@type Direction
NW = 1
---North: row + 1.
---@type Direction
N = 2
---North-east: row + 1, column + 1.
---@type Direction
NE = 3
---East: column + 1.
---@type Direction
E = 4
---South-east: row - 1, column + 1.
---@type Direction
SE = 5
---South: row - 1.
---@type Direction
S = 6
---South-west: row - 1, column - 1.
---@type Direction
SW = 7
---West: column - 1.
---@type Direction
W = 8

---Do nothing this round (returning nothing does the same).
---@type Action
WAIT = "wait"
---Step into a neighbouring cell: `return MOVE, dir`.
---@type Action
MOVE = "move"
---Kill whatever stands in a neighbouring cell at the end of the round,
---teammates included: `return ATTACK, dir`.
---@type Action
ATTACK = "attack"
---Create a new square in a neighbouring cell:
---`return REPLICATE, dir, class, data`. `class` is a class id (nil: your own
---class), `data` the child's initial `self` (copied). Parent and child then
---sit still for 100 rounds (rules.replicate_rounds).
---@type Action
REPLICATE = "replicate"

---A view entry for an empty cell.
---@type Cell
EMPTY = -1
---A view entry beyond the edge of an arena that does not wrap.
---@type Cell
WALL = -2

---One team's statistics, as returned by `stats()`.
---@class TeamStats
---@field squares integer squares alive now
---@field births integer squares created by replication so far
---@field kills integer enemy squares this team killed
---@field deaths integer squares of this team that died, for any reason
---@field collisions integer deaths in a cell shared with a teammate
---@field timeouts integer turns lost to the instruction budget
---@field errors integer turns lost to errors or invalid answers
---@field player string the team's display name

---The table a player script returns.
---@class Player
---@field name? string display name; a class with a name is a starting player
---@field victory? string speech shown when the team wins
---@field defeat? string speech shown next to the team once it is wiped out
---@field run fun(self: SquareData, team: integer, view: View, row: integer, col: integer): (Action|nil), (Direction|DirectionName|nil), (string|nil), (table|nil) called once per round for every square of this class that may act
---@field eliminated? fun(self: SquareData, team: integer, killer: string, row: integer, col: integer, killer_team: integer) called once for every square of this class that dies

---The current round, starting at 1.
---@return integer
function round() end

---The side N of the N×N arena.
---@return integer
function board_size() end

---The number of teams in the battle; teams are numbered 0 .. team_count() - 1.
---@return integer
function team_count() end

---Statistics of every team, indexed by team number (starting at 0). Inside
---`run` they are those at the start of the round. Treat the table as
---read-only.
---@return table<integer, TeamStats>
function stats() end

---Every usable class id (script file name without `.lua`), sorted. Returns
---a new table each call.
---@return string[]
function classes() end

---Switch this square to another class from the next round on; its `self`
---is kept. Only valid inside `run`; raises an error for an unknown class id.
---@param class string class id, e.g. "tweedledee"
function become(class) end

---A table shared by every square of the team, whatever its class, for the
---whole battle. Other teams cannot see it. It starts empty (and starts over
---empty if the team's Lua memory is ever reset).
---@type table<any, any>
team_memory = {}

---The direction `dir` turned clockwise by `eighths` eighths of a circle
---(default 1; negative turns anticlockwise). `turn(N)` is `NE`,
---`turn(NW, -1)` is `W`, `turn(d, 2)` a right angle to the right.
---@param dir Direction|DirectionName
---@param eighths? integer how far to turn clockwise (default 1)
---@return Direction
function turn(dir, eighths) end

---The direction pointing the other way: `opposite(NE)` is `SW`.
---@param dir Direction|DirectionName
---@return Direction
function opposite(dir) end

---The row and column one step from (`row`, `col`) in direction `dir`,
---wrapping at the edges of the arena; nil beyond the edge of an arena that
---does not wrap.
---@param row integer
---@param col integer
---@param dir Direction|DirectionName
---@return integer|nil row
---@return integer|nil col
function neighbour(row, col, dir) end

---Notes in the team's plans what the team means to do this round with the
---cell in direction `dir` of the calling square. Teammates asked later in
---the round see it through `planned` and `free`. Plans are cleared at the
---start of every round. Only valid inside `run`; does nothing beyond the
---edge of an arena that does not wrap.
---@param dir Direction|DirectionName
---@param what? any what the cell is for, e.g. "move", "birth", "attack" (default "move")
function plan(dir, what) end

---What the team noted with `plan` for the cell in direction `dir` of the
---calling square this round, or nil. Only valid inside `run`.
---@param dir Direction|DirectionName
---@return any|nil what
function planned(dir) end

---True when the cell in direction `dir` of the calling square was empty at
---the start of the round and nothing of the team is planned there: the
---cell is safe to move or replicate into (then `plan` it). Only valid
---inside `run`.
---@param dir Direction|DirectionName
---@return boolean
function free(dir) end
