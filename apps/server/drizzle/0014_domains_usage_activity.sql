CREATE TABLE "activity_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"actor_user_id" uuid,
	"actor" text NOT NULL,
	"kind" text NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"organisation_id" uuid NOT NULL,
	"day" date NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"renders" integer DEFAULT 0 NOT NULL,
	"ai_runs" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_organisation_id_day_pk" PRIMARY KEY("organisation_id","day"),
	CONSTRAINT "usage_daily_counts_check" CHECK ("usage_daily"."requests" >= 0 and "usage_daily"."bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "custom_domains" ADD COLUMN "status" text DEFAULT 'verified' NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_domains" ADD COLUMN "token" text;--> statement-breakpoint
ALTER TABLE "custom_domains" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "custom_domains" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "custom_domains" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "cors_origins" text[] DEFAULT '{*}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_organisation_created_idx" ON "activity_log" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_log_organisation_kind_idx" ON "activity_log" USING btree ("organisation_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "custom_domains_organisation_idx" ON "custom_domains" USING btree ("organisation_id");--> statement-breakpoint
ALTER TABLE "custom_domains" ADD CONSTRAINT "custom_domains_status_check" CHECK ("custom_domains"."status" in ('pending', 'verified', 'failed'));