-- The console's recent files (listRecentFiles): one organisation's files by updated_at desc, id desc, read backwards from this index instead of sorting all of them.
CREATE INDEX "files_organisation_updated_idx" ON "files" USING btree ("organisation_id","updated_at","id");
