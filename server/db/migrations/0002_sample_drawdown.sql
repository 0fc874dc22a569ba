ALTER TABLE "account_samples" ADD COLUMN "equity_high" numeric;--> statement-breakpoint
ALTER TABLE "account_samples" ADD COLUMN "equity_low" numeric;--> statement-breakpoint
ALTER TABLE "account_samples" ADD COLUMN "drawdown_pct" numeric;--> statement-breakpoint
ALTER TABLE "account_samples_hourly" ADD COLUMN "drawdown_pct" numeric;