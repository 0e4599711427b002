-- Seat.Blamed: a failed battle failed for this seat's inputs. Player.Blamed:
-- how many of the current version's failed battles were blamed on it,
-- which keeps it out of others' battles.
ALTER TABLE seats ADD COLUMN blamed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE players ADD COLUMN blamed INTEGER NOT NULL DEFAULT 0;
