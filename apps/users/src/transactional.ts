/**
 * Stores `S` over the pool, and `tx`, which hands `fn` the same stores over
 * one transaction: a change that spans domains (a registration writes the
 * user, its identifiers, acceptances and queued deliveries) commits or rolls
 * back as one. Domain modules name the stores they use; the module's
 * composition (stores.ts) gives them all.
 */
export type Transactional<S> = S & { tx<T>(fn: (stores: S) => Promise<T>): Promise<T> };
