/**
 * Typed in-process domain events: how a domain tells the others that something happened (or is about to) without
 * knowing who listens, and how a lower floor lets a higher one take part in its work (a veto, a clean-up) without
 * importing it. Each event's contract is declared by the domain that emits it, by augmenting `DomainEventMap`:
 *
 * ```ts
 * declare module '../../lib/domain-events' {
 *   interface DomainEventMap { 'account.deleting': { userId: string } }
 * }
 * ```
 *
 * Subscribers register at construction (a plugin's body), so the order plugins are registered in does not matter
 * as long as nothing is emitted before the app is ready.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each emitting domain through declaration merging
export interface DomainEventMap {}

export type DomainEventName = keyof DomainEventMap;
export type DomainEventHandler<K extends DomainEventName> = (event: DomainEventMap[K]) => unknown;

export interface DomainEvents {
  /** Subscribes; returns the unsubscribe */
  on<K extends DomainEventName>(name: K, handler: DomainEventHandler<K>): () => void;
  /**
   * For steps that must happen (or may veto): runs the handlers one after another in subscription order, awaiting
   * each; the first that throws stops the event and its error reaches the emitter
   */
  emit<K extends DomainEventName>(name: K, event: DomainEventMap[K]): Promise<void>;
  /**
   * For news: every handler runs whatever the others do; a failure is handed to `onError` and never reaches the
   * emitter
   */
  publish<K extends DomainEventName>(name: K, event: DomainEventMap[K]): Promise<void>;
}

export function createDomainEvents(onError: (err: unknown, name: DomainEventName) => void): DomainEvents {
  const handlers = new Map<DomainEventName, Set<DomainEventHandler<never>>>();
  const of = <K extends DomainEventName>(name: K) =>
    [...(handlers.get(name) ?? [])] as DomainEventHandler<K>[];
  return {
    on(name, handler) {
      const set = handlers.get(name) ?? new Set();
      handlers.set(name, set);
      set.add(handler as DomainEventHandler<never>);
      return () => void set.delete(handler as DomainEventHandler<never>);
    },
    async emit(name, event) {
      for (const handler of of(name)) await handler(event);
    },
    async publish(name, event) {
      await Promise.all(
        of(name).map(async (handler) => {
          try {
            await handler(event);
          } catch (err) {
            onError(err, name);
          }
        }),
      );
    },
  };
}
