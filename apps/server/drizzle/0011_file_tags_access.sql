ALTER TABLE "files" ADD COLUMN "access" text DEFAULT 'public-read' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "files_tags_idx" ON "files" USING gin ("tags");--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_access_check" CHECK ("files"."access" in ('public-read', 'private'));