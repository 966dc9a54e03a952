CREATE TABLE `chunks` (
	`id` text PRIMARY KEY NOT NULL,
	`doc_id` text NOT NULL,
	`ord` integer NOT NULL,
	`text` text NOT NULL,
	`tokens` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`fingerprint` text NOT NULL,
	FOREIGN KEY (`doc_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chunks_doc` ON `chunks` (`doc_id`);--> statement-breakpoint
CREATE INDEX `chunks_fingerprint` ON `chunks` (`fingerprint`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`root` text NOT NULL,
	`path` text NOT NULL,
	`title` text NOT NULL,
	`date` text NOT NULL,
	`time` text,
	`category` text DEFAULT '' NOT NULL,
	`summary` text DEFAULT '' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`title_tokens` text DEFAULT '' NOT NULL,
	`summary_tokens` text DEFAULT '' NOT NULL,
	`tag_tokens` text DEFAULT '' NOT NULL,
	`content_hash` text NOT NULL,
	`mtime_ms` real NOT NULL,
	`size` integer NOT NULL,
	`archived` integer DEFAULT false NOT NULL,
	`warnings` text DEFAULT '[]' NOT NULL,
	`workspace` text DEFAULT 'global' NOT NULL,
	`session_id` text,
	`indexed_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_root_path` ON `documents` (`root`,`path`);--> statement-breakpoint
CREATE INDEX `documents_date` ON `documents` (`date`);--> statement-breakpoint
CREATE TABLE `index_manifest` (
	`id` text PRIMARY KEY NOT NULL,
	`engine_version` text NOT NULL,
	`tokenizer` text NOT NULL,
	`chunk_size` integer NOT NULL,
	`chunk_overlap` integer NOT NULL,
	`corpus_hash` text NOT NULL,
	`built_at` text NOT NULL,
	`embedding` text
);
--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `settings_overlay` (
	`id` text PRIMARY KEY NOT NULL,
	`json` text NOT NULL,
	`updated_at` text NOT NULL
);
