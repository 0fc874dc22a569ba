import type { Signal } from "#contract";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type RefObject, useLayoutEffect, useRef, useState } from "react";
import type { ExecutionIndex } from "../lib/execution-summary";
import { SignalRow } from "./signal-row";

/** Lists up to this many rows are rendered whole; longer ones are virtualised. */
export const VIRTUALIZE_FROM = 60;
/** First guess of a row's height in px (rows are measured once rendered). */
const ESTIMATED_ROW_PX = 170;

export interface SignalListProps {
  signals: readonly Signal[];
  index: ExecutionIndex;
  slaveLabels: ReadonlyMap<string, string>;
  onlySlaveId?: string;
}

/**
 * Active signals (§2), newest first. Long lists (1,000 signals and more) render only the rows
 * near the viewport; each row looks up its executions in the index by signal id.
 */
export function SignalList(props: SignalListProps) {
  const { signals, index, slaveLabels, onlySlaveId } = props;
  if (signals.length >= VIRTUALIZE_FROM) return <VirtualSignalList {...props} />;
  return (
    <div className="flex flex-col gap-3" data-testid="list-signals">
      {signals.map((signal) => (
        <SignalRow key={signal.id} signal={signal} executions={index.get(signal.id)} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
      ))}
    </div>
  );
}

/** Nearest ancestor that scrolls vertically (the shell's main area), or null. */
function scrollParentOf(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === "auto" || overflowY === "scroll") return node;
  }
  return null;
}

/**
 * The scrolling ancestor of `ref` and the list's offset inside its scrolled content, kept up to
 * date as the content above the list changes height. Without a scrolling ancestor the list
 * scrolls itself (`own`).
 */
export function useScrollHost(ref: RefObject<HTMLDivElement | null>) {
  const [host, setHost] = useState<{ element: HTMLElement | null; own: boolean }>({ element: null, own: false });
  const [offset, setOffset] = useState(0);

  useLayoutEffect(() => {
    const list = ref.current;
    if (!list) return;
    const parent = scrollParentOf(list);
    setHost(parent ? { element: parent, own: false } : { element: list, own: true });
    if (!parent) return;
    const measure = () => {
      const top = list.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop;
      setOffset((previous) => (Math.abs(previous - top) < 0.5 ? previous : top));
    };
    measure();
    const observer = new ResizeObserver(measure);
    if (parent.firstElementChild) observer.observe(parent.firstElementChild);
    observer.observe(parent);
    return () => observer.disconnect();
  }, [ref]);

  return { ...host, offset: host.own ? 0 : offset };
}

function VirtualSignalList({ signals, index, slaveLabels, onlySlaveId }: SignalListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const host = useScrollHost(listRef);
  const virtualizer = useVirtualizer({
    count: signals.length,
    getScrollElement: () => host.element,
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (i) => signals[i]?.id ?? i,
    overscan: 6,
    scrollMargin: host.offset,
    useFlushSync: false,
  });

  return (
    <div
      ref={listRef}
      className={host.own ? "max-h-[75dvh] overflow-y-auto" : undefined}
      data-testid="list-signals"
      data-virtualized="true"
      aria-rowcount={signals.length}
    >
      <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const signal = signals[item.index];
          if (!signal) return null;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="absolute top-0 left-0 w-full pb-3"
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
            >
              <SignalRow signal={signal} executions={index.get(signal.id)} slaveLabels={slaveLabels} onlySlaveId={onlySlaveId} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
