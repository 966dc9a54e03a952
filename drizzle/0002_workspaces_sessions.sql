CREATE TABLE `session_imports` (
	`session_id` text PRIMARY KEY NOT NULL,
	`workspace` text NOT NULL,
	`path` text NOT NULL,
	`source_hash` text NOT NULL,
	`turns` integer NOT NULL,
	`imported_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `summary_jobs` (
	`doc_id` text PRIMARY KEY NOT NULL,
	`path` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`source` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `summary_jobs_status` ON `summary_jobs` (`status`);--> statement-breakpoint
CREATE TABLE `sync_cursors` (
	`session_id` text PRIMARY KEY NOT NULL,
	`synced_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `wall_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`at` text NOT NULL,
	`from_session` text NOT NULL,
	`from_workspace` text NOT NULL,
	`recipient` text DEFAULT '' NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wall_messages_at` ON `wall_messages` (`at`);--> statement-breakpoint
CREATE TABLE `workspace_claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`path` text NOT NULL,
	`workspace_id` text,
	`candidates` text DEFAULT '[]' NOT NULL,
	`decision` text NOT NULL,
	`status` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workspace_claims_status` ON `workspace_claims` (`status`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`strong_key` text,
	`weak_key` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_path` ON `workspaces` (`path`);--> statement-breakpoint
ALTER TABLE `documents` ADD `origin` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `pinned` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `locked` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `supersedes` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `summary_source` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
CREATE INDEX `documents_workspace` ON `documents` (`workspace`);--> statement-breakpoint
CREATE INDEX `documents_session` ON `documents` (`session_id`);