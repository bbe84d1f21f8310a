-- A use counted against a limit may cost more than one (credits of a visitor AI chain, bytes of a visitor upload).
ALTER TABLE "rate_limit_events" ADD COLUMN "weight" bigint DEFAULT 1 NOT NULL;