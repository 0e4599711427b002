---@meta squarebattle-rules
-- Type definitions of the rule-mod API for lua-language-server: what a
-- game's rules.lua gets and returns. Never run; see docs/modding.md.

---How a cell of the board is drawn.
---@alias Style
---| "empty" # nothing there
---| "unit"  # a unit of the cell's team, in the team's colour
---| "trail" # ground the cell's team holds, in a softer shade of its colour
---| "wall"  # impassable terrain
---| "item"  # something to pick up
---| "value" # neutral ground shaded by its value, 0 to 255

---The battle as the rules see and change it. Rows and columns count from
---0, row 0 at the bottom; teams count from 0.
---@class Game
game = {}

---@return integer round the round being played (0 in setup)
function game.round() end
---@return integer rounds the round limit
function game.rounds() end
---@return integer size the board's side
function game.size() end
---@return boolean wrap whether the board's edges wrap
function game.wrap() end
---@return integer teams the number of teams
function game.teams() end

---Draws a cell. `game.set(row, col)` clears it.
---@param row integer
---@param col integer
---@param team? integer the team, or nil for none
---@param style? Style default "unit" with a team, "empty" without
---@param value? integer 0 to 255: the shade of a "value" cell, free otherwise
function game.set(row, col, team, style, value) end

---What a cell shows.
---@param row integer
---@param col integer
---@return integer? team
---@return Style style ("off" outside the board)
---@return integer value
function game.get(row, col) end

---Sets a team's score column when value is given; returns the column.
---@param team integer
---@param column string|integer a column name, or its 1-based index
---@param value? integer
---@return integer
function game.score(team, column, value) end

---Ends the battle after this round.
---@param winner? integer the winning team, or nil for a draw
function game.finish(winner) end

---A unit is gone: its private memory is dropped.
---@param team integer
---@param unit integer
function game.forget(team, unit) end

---The configured value of an option the rules declare (options = {...}),
---or its default.
---@param name string
---@return number|boolean|string
function game.option(name) end

---Declares that t never changes: it is copied out once and each team's VM
---shares one copy of it between calls.
---@generic T: table
---@param t T
---@return T
function game.constant(t) end

---math.random's contract over the battle's seeded rules stream.
---@param m? integer
---@param n? integer
---@return number
function game.random(m, n) end

---Squarebattle protocol only: draws 0 to n-1 from the placement stream.
---@param n integer
---@return integer
function game.placement(n) end

---Squarebattle protocol only: draws 0 to n-1 from the killer stream.
---@param n integer
---@return integer
function game.pick(n) end

---One player asked for an answer.
---@class Call
---@field team integer the team asked
---@field unit? integer the unit (0 to 65535); its memory is kept per id; 0 is the team's
---@field class? string the script that answers; default the team's player
---@field view any plain data: what the player is shown
---@field budget? integer this call's instruction budget (games with a clock)

---A rules script's table.
---@class RulesTable
---@field name? string the game's display name
---@field columns? string[] the per-team score columns; the first decides the winner
---@field entry? string the function the rules call in a player's table (default "run")
---@field protocol? "squarebattle" keep SquareBattle's players; see docs/modding.md
---@field options? table<string, number|boolean|string> settings of the game and their defaults
---@field setup? fun(game: Game)
---@field turns fun(game: Game): Call[]?
---@field resolve fun(game: Game, calls: Call[], answers: any[], used: integer[])
