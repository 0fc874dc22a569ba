ALTER TABLE "executions" ADD COLUMN "terminal_to_bridge_ms" integer;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "bridge_to_slave_ms" integer;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "slave_execution_ms" integer;--> statement-breakpoint
ALTER TABLE "signal_events" ADD COLUMN "terminal_to_bridge_ms" integer;