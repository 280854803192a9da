package io.jobfoundry.kv;

import com.apple.foundationdb.tuple.Versionstamp;
import java.util.concurrent.CompletableFuture;

/**
 * One attempt of a serializable transaction with FoundationDB's semantics and limits (keys up to
 * 10 KB less room for a store's prefix, values up to 100 KB, 10 MB of writes, a timeout). Writes
 * are buffered until commit and visible to this transaction's own reads. A transaction object is
 * used by one thread only and dies with its attempt: never keep it beyond the body that received
 * it.
 */
public interface KvTransaction extends KvReads {

    /**
     * Room kept, within FoundationDB's 10,000-byte key limit, for the prefix a store puts before
     * every key (the FDB store's subspace); {@code FdbOptions} refuses a longer prefix.
     */
    int MAX_KEY_PREFIX_BYTES = 256;

    /**
     * FoundationDB's limits, enforced by every gateway on keys and values as the caller gives them,
     * so that no backend accepts what another refuses, whatever its prefix. A key may be FDB's
     * 10,000 bytes less {@link #MAX_KEY_PREFIX_BYTES}. A versionstamped key or value counts 4 bytes
     * more, as FoundationDB counts it (it arrives with its placeholder's position).
     */
    int MAX_KEY_BYTES = 10_000 - MAX_KEY_PREFIX_BYTES;
    int MAX_VALUE_BYTES = 100_000;
    int MAX_TRANSACTION_BYTES = 10_000_000;
    /** What a versionstamped key or value counts beyond its length: the placeholder's position. */
    int VERSIONSTAMP_OFFSET_BYTES = 4;

    /** Why a read of what this transaction wrote with its versionstamp fails (see {@link #setVersionstampedKey}). */
    String UNREADABLE_VERSIONSTAMP = "a transaction cannot read the versionstamped keys and values it wrote before it"
            + " commits (FoundationDB: accessed_unreadable)";

    /** Reads that add no read conflicts. */
    KvReads snapshot();

    void set(byte[] key, byte[] value);

    void clear(byte[] key);

    /**
     * Clears every key with {@code begin <= key < end}. FoundationDB clears any range at once; the
     * embedded store deletes the keys one by one, holding the commit queue and the changed pages in
     * memory meanwhile, and the transaction size limit does not count them: clear bounded ranges.
     * A range with {@code begin >= end} holds no key, so clearing it does nothing and is no write,
     * as {@link #getRange} of it reads nothing (FoundationDB itself would fail an inverted range).
     */
    void clearRange(byte[] begin, byte[] end);

    /**
     * FoundationDB's atomic ADD of a 64-bit little-endian integer: adds no read conflict, so many
     * transactions may bump one counter without conflicting. A missing value counts as zero.
     */
    void add(byte[] key, long delta);

    /** Makes this transaction conflict with any concurrent change of {@code key}. */
    void addReadConflictKey(byte[] key);

    /**
     * Sets a key whose 10 bytes at {@code offset} are replaced, at commit, by this transaction's
     * versionstamp. Build such keys with {@link VersionstampKeys}. Until it commits, this
     * transaction cannot read any key the template could become (a read that would see one fails
     * with a non-retryable {@link StoreException}, {@link #UNREADABLE_VERSIONSTAMP}): FoundationDB
     * does not know the key before the commit.
     */
    void setVersionstampedKey(byte[] key, int offset, byte[] value);

    /**
     * Sets a value whose 10 bytes at {@code offset} are replaced, at commit, by the versionstamp.
     * Until it commits, or sets or clears the key again, this transaction cannot read the key, as
     * with {@link #setVersionstampedKey}.
     */
    void setVersionstampedValue(byte[] key, byte[] value, int offset);

    /**
     * The versionstamp this transaction commits at, completed after a successful commit of a
     * transaction that wrote something: unique and ordered as commits are.
     */
    CompletableFuture<Versionstamp> versionstamp();

    /**
     * A future completed once the value of {@code key} differs from the one this transaction saw
     * when it asked for the watch, its own earlier writes included (FoundationDB's semantics).
     * Before this transaction commits, only its own later writes of the key can fire it (at the
     * latest when it commits); once it has committed, so can any other transaction's committed
     * change. If this transaction does not commit, the watch fails, unless its own write fired it.
     * A change undone before the store compares may go unreported.
     *
     * <p>A watch may also fail after it was armed (FoundationDB: too_many_watches, future_version;
     * any store: closing): a change may then have been missed, so look again, but not at once.
     * Cancelling it releases it; a store holds only so many. On FoundationDB asking for a watch
     * reads the key with a read conflict: a transaction that writes and watches fails to commit if
     * the key changes meanwhile, so watch a key others write often from a read-only transaction.
     */
    CompletableFuture<Void> watch(byte[] key);
}
