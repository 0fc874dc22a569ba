import { Component, type ErrorInfo, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

interface State {
  error: Error | null;
}

/** A screen chunk that no longer exists on the server (a new version was deployed meanwhile). */
export function isChunkLoadError(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Loading chunk/i.test(error.message);
}

/**
 * Keeps one screen's failure from blanking the whole dashboard: shows what happened and a
 * Reload button instead. A failed screen chunk (a deploy replaced the files) reloads the page.
 * Resets when the route changes (`resetKey`).
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("Screen failed", error, info.componentStack);
  }

  override componentDidUpdate(prev: { resetKey: string }): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const stale = isChunkLoadError(error);
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-3 py-16 text-center" role="alert" data-testid="screen-error">
        <h2 className="text-lg font-semibold">{stale ? "A new version of CopyBridge is available" : "Something went wrong"}</h2>
        <p className="text-sm text-muted-foreground">
          {stale ? "Reload to load the latest dashboard." : "This screen could not be shown. Reloading usually helps."}
        </p>
        <Button onClick={() => window.location.reload()} data-testid="button-reload">
          Reload
        </Button>
      </div>
    );
  }
}
