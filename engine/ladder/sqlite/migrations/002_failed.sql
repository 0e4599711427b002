-- Player.Failed: the battles of a player's current version given up or
-- failed since its last rated battle, which matchmaking counts.
ALTER TABLE players ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
