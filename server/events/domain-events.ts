/**
 * In-process domain events: the copy engine and the bridge announce what happened (after their
 * transaction committed); observers such as the alert engine react asynchronously, so they never
 * slow down or fail the signal path. Listener errors are caught and logged, never rethrown.
 */
import type { CloseOnlyCode } from "#contract";
import type { AccountRow } from "../features/accounts/mappers.ts";
import type { ExecutionRow } from "../features/signals/mappers.ts";

export interface DomainEventMap {
  /** Executions created or changed (rejected by a rule, or reported by an EA). */
  executions: { tenantId: string; rows: ExecutionRow[] };
  /** A terminal heartbeat was recorded. */
  heartbeat: { tenantId: string; account: AccountRow };
  /** A slave went close-only on a heartbeat (protection); `brokerDay` YYYY-MM-DD in broker time. */
  close_only: { tenantId: string; account: AccountRow; code: CloseOnlyCode; reason: string; brokerDay: string };
}

type Listener<K extends keyof DomainEventMap> = (event: DomainEventMap[K]) => Promise<void> | void;

export class DomainEvents {
  private readonly listeners: { [K in keyof DomainEventMap]?: Listener<K>[] } = {};

  constructor(private readonly onError: (err: unknown, event: keyof DomainEventMap) => void = (err) => console.error(err)) {}

  on<K extends keyof DomainEventMap>(name: K, listener: Listener<K>): void {
    const list = (this.listeners[name] ??= []) as Listener<K>[];
    list.push(listener);
  }

  /** Calls every listener without waiting for it. */
  emit<K extends keyof DomainEventMap>(name: K, event: DomainEventMap[K]): void {
    for (const listener of (this.listeners[name] ?? [])) {
      try {
        const result = listener(event);
        if (result instanceof Promise) result.catch((err: unknown) => this.onError(err, name));
      } catch (err) {
        this.onError(err, name);
      }
    }
  }
}
