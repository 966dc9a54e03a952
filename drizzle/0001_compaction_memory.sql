CREATE TABLE `compaction_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`workspace` text NOT NULL,
	`session_id` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`count` integer NOT NULL,
	`detail` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `compaction_audit_session` ON `compaction_audit` (`workspace`,`session_id`);--> statement-breakpoint
CREATE TABLE `compaction_blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace` text NOT NULL,
	`session_id` text NOT NULL,
	`compaction_id` text NOT NULL,
	`ord` integer NOT NULL,
	`layer` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`keywords` text DEFAULT '[]' NOT NULL,
	`model_keywords` text DEFAULT '[]' NOT NULL,
	`body` text NOT NULL,
	`fingerprint` text NOT NULL,
	`seq_start` integer,
	`seq_end` integer,
	`cut_from` integer,
	`created_at` text NOT NULL,
	`injected_at` text,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `compaction_blocks_fingerprint` ON `compaction_blocks` (`workspace`,`session_id`,`fingerprint`);--> statement-breakpoint
CREATE INDEX `compaction_blocks_session` ON `compaction_blocks` (`workspace`,`session_id`);--> statement-breakpoint
CREATE TABLE `compaction_llm_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `compaction_llm_usage` (
	`day` text PRIMARY KEY NOT NULL,
	`calls` integer NOT NULL,
	`tokens` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `compaction_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace` text NOT NULL,
	`session_id` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`compaction_id` text,
	`range_fingerprint` text NOT NULL,
	`ord` integer NOT NULL,
	`seq_start` integer,
	`seq_end` integer,
	`blocks_added` integer NOT NULL,
	`blocks_skipped` integer NOT NULL,
	`overview` text DEFAULT '' NOT NULL,
	`overview_tokens` integer DEFAULT 0 NOT NULL,
	`rules_text` text DEFAULT '' NOT NULL,
	`report` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `compaction_runs_key` ON `compaction_runs` (`workspace`,`session_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `compaction_runs_session` ON `compaction_runs` (`workspace`,`session_id`);