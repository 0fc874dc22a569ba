import { House } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";

/** §2: any unknown path inside the authenticated shell. */
export function NotFoundPage() {
  return (
    <div className="flex flex-col items-center justify-center gap-4 py-24 text-center" data-testid="page-not-found">
      <p className="font-mono text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold">Page Not Found</h1>
      <p className="text-sm text-muted-foreground">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link to="/" data-testid="link-home">
          <House />
          Back to Overview
        </Link>
      </Button>
    </div>
  );
}
