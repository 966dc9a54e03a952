ALTER TABLE `documents` ADD `kind` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `goal` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `documents` ADD `goal_tokens` text DEFAULT '' NOT NULL;