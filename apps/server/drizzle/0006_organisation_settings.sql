-- Organisations that existed before strict transformations keep today's behaviour; new ones start strict.
ALTER TABLE "organisations" ADD COLUMN "strict_transformations" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ALTER COLUMN "strict_transformations" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "allow_raw_files" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "derived_images_last_accessed_idx" ON "derived_images" USING btree ("last_accessed_at");
