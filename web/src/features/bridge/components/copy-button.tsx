import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { toastError } from "@/components/ui/use-toast";

/** Copies `value` to the clipboard; the icon turns into a tick for two seconds. */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (error) {
      console.error("Clipboard write failed", error);
      toastError("Could not copy to the clipboard. Select the text and copy it instead.");
    }
  };

  return (
    <Button type="button" variant="ghost" size="icon" className="size-8 shrink-0" onClick={() => void copy()} aria-label={label} title={label} data-testid={testId}>
      {copied ? <Check className="text-success" /> : <Copy />}
    </Button>
  );
}
