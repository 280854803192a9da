package io.jobfoundry.kv;

/**
 * The work of one transaction. It may run several times (after a conflict, or after a commit
 * whose outcome was unknown even though it took effect), so it must be idempotent with respect to
 * what it reads: decide from the store's state, never from a previous attempt's side effects.
 */
@FunctionalInterface
public interface TransactionBody<T> {
    T apply(KvTransaction tx);
}
