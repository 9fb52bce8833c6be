/*
 * The transposition table: buckets of two entries (one cache line), the
 * deep table of OPT_DEEPTT, pile dominance between entries, growth within
 * the memory bound.
 */
#ifndef SCOPONE_TABLE_H
#define SCOPONE_TABLE_H

#include "bounds.h"
#include <sys/mman.h>
#include <unistd.h> /* sysconf: the second-level cache's size */

#ifndef SMALL_CARDS
#define SMALL_CARDS 10 /* cards left for the plain search: a table node costs about four plain
                        * ones, and with 10 cards left or fewer its table saves less than that
                        * (paired against 8: at 7 cards, 9 took 0.96 the time, 10 0.93-0.98, 11
                        * 1.006, 12 1.12; 6 and 7 were slower; notebook) */
#endif
#ifndef DEEPTT_MAX
#define DEEPTT_MAX 8 /* OPT_DEEPTT: the nodes of the last eight cards use its table of their own */
#endif

/* ------------------------------------------------------------------ table */
/*
 * The bucket of a key at a node with `left` cards in hand.  The nodes of the
 * last DEEPTT_MAX cards (OPT_DEEPTT) use a small table of their own that
 * stays in the processor's cache: their subtrees are small, so a probe that
 * waits for main memory costs about as much as the subtree, and their
 * transpositions are near one another in the search.
 */
/* the slot key (card locations, mover, last capturer) of the position after move m, without making
 * it: for fetching the children's slots ahead */
static inline uint64_t child_key(const Solver *S, const Move *m) {
    int c = m->card, seat = S->to_move, next = (seat + 1) & 3;
    uint64_t k = S->z1 ^ Z1[c][seat];
    if (!m->cap) return k ^ Z1[c][4] ^ ZMOVER[next][S->last + 1];
    for (uint64_t x = m->cap; x; x &= x - 1) k ^= Z1[__builtin_ctzll(x)][4];
    return k ^ ZMOVER[next][(seat & 1) + 1];
}

static inline Entry *bucket_at(const Solver *S, uint64_t key, int left) {
    if (S->tt2 && left <= DEEPTT_MAX) return S->tt2 + (key & S->tt2_mask & ~1ULL);
    return S->tt + (key & S->tt_mask & ~1ULL);
}

/*
 * What the lock word adds to the key: check, move and a hash of data, so that an
 * entry mixing two writes' words decodes to another key.  With a plain xor of
 * all three, two writes whose moves and data differ by the same bits would
 * cancel out; hashed, data's difference is a pseudo-random word that a
 * difference of moves matches with probability 2^-64.
 */
static inline uint64_t entry_seal(const Entry *e) {
    return e->check ^ e->move ^ mix64(e->data);
}

/* a copy of the slot `src` in `dst`, read word by word (another thread may be
 * writing it); returns its key, 0 when the slot is empty */
static inline uint64_t entry_load(const Entry *src, Entry *dst) {
    dst->lock = __atomic_load_n(&src->lock, __ATOMIC_RELAXED);
    if (!dst->lock) { /* empty (a real entry's lock is 0 with probability 2^-64) */
        dst->move = dst->check = dst->data = 0;
        return 0;
    }
    dst->move = __atomic_load_n(&src->move, __ATOMIC_RELAXED);
    dst->check = __atomic_load_n(&src->check, __ATOMIC_RELAXED);
    dst->data = __atomic_load_n(&src->data, __ATOMIC_RELAXED);
    return dst->lock ^ entry_seal(dst);
}

/* write `src` (move, check, data) into the slot `dst` under `key` */
static inline void entry_store(Entry *dst, uint64_t key, const Entry *src) {
    __atomic_store_n(&dst->move, src->move, __ATOMIC_RELAXED);
    __atomic_store_n(&dst->check, src->check, __ATOMIC_RELAXED);
    __atomic_store_n(&dst->data, src->data, __ATOMIC_RELAXED);
    __atomic_store_n(&dst->lock, key ^ entry_seal(src), __ATOMIC_RELAXED);
}

/*
 * The bucket of `key` copied into got[2] with the keys of its entries in
 * keys[2]; returns the index of the entry for (key, check), or -1.
 */
static inline int probe(const Solver *S, uint64_t key, uint64_t check, Entry got[2], uint64_t keys[2]) {
    const Entry *b = bucket_at(S, key, S->cards_left);
    keys[0] = entry_load(b, got);
    keys[1] = entry_load(b + 1, got + 1);
    if (!key) return -1;
    if (keys[0] == key && got[0].check == check) return 0;
    if (keys[1] == key && got[1].check == check) return 1;
    return -1;
}

/*
 * How pile A compares with pile E for team A, the cards in play being the same
 * (so both piles split the same captured cards): bit 0 if A's is at least as
 * good in every respect the score is monotone in (A's cards, Denari, the
 * settebello, re bello, napola's Denari, each suit's best primiera value; B's
 * suit values no better), bit 1 if at most as good.  Every category grows with
 * a team's pile and the future plays do not depend on the piles, so the value
 * (scope excluded) is ordered the same way.
 */
static int pile_order(const Solver *S, uint64_t pa, uint64_t pe) {
    uint64_t cap = S->pile[0] | S->pile[1];
    if (pe & ~cap) return 0; /* not the same captured cards: a hash collision */
    int ge = 1, le = 1, d;
#define ORDER_BY(x) do { d = (x); if (d < 0) ge = 0; else if (d > 0) le = 0; } while (0)
    ORDER_BY(popc(pa) - popc(pe));
    ORDER_BY(popc(pa & DENARI_MASK) - popc(pe & DENARI_MASK));
    ORDER_BY((int)(pa >> SETTEBELLO & 1) - (int)(pe >> SETTEBELLO & 1));
    if (RULE(S, re_bello)) ORDER_BY((int)(pa >> RE_BELLO & 1) - (int)(pe >> RE_BELLO & 1));
    if (RULE(S, napola)) {
        if ((pe & DENARI_MASK) & ~pa) ge = 0;
        if ((pa & DENARI_MASK) & ~pe) le = 0;
    }
    if (!ge && !le) return 0;
    int a[4], e[4], ab[4], eb[4];
    best_pv4(pa, a); best_pv4(pe, e);
    best_pv4(cap & ~pa, ab); best_pv4(cap & ~pe, eb);
    for (int st = 0; st < 4; st++) {
        ORDER_BY(a[st] - e[st]);
        ORDER_BY(eb[st] - ab[st]);
    }
#undef ORDER_BY
    return ge | le << 1;
}

/* [*lo, *hi] narrowed by the bounds of entry e (same cards in play, sd the scope difference) that
 * hold for this pile A: all of them for this very pile, else (pile dominance) its lower bound where
 * this pile is no worse for A than e's, its upper bound where no better */
static inline void pile_bounds(const Solver *S, const Entry *e, int sd, int *lo, int *hi) {
    int order = entry_pile(e) == S->pile[0] ? 3 : pile_order(S, S->pile[0], entry_pile(e));
    if ((order & 1) && entry_lo(e, sd, S->inf) > *lo) *lo = entry_lo(e, sd, S->inf);
    if ((order & 2) && entry_hi(e, sd, S->inf) < *hi) *hi = entry_hi(e, sd, S->inf);
}

/* a slot for a new entry of subtree size w in bucket b, given the bucket as probe()
 * read it (cur, keys): slot 0 keeps the bigger subtree, slot 1 takes the rest */
static inline Entry *slot_in(Solver *S, Entry *b, int w, const Entry cur[2], const uint64_t keys[2]) {
    uint64_t k0 = keys[0], k1 = keys[1];
    int count = b < S->tt2 || !S->tt2 || b >= S->tt2 + S->tt2_mask + 1; /* the main table grows */
    if (!k0 || cur[0].work <= w) {
        if (k0) {
            if (!k1) S->tt_entries += count;
            entry_store(b + 1, k0, cur);
        } else S->tt_entries += count;
        return b;
    }
    if (!k1) S->tt_entries += count;
    return b + 1;
}

static inline Entry *slot_for(Solver *S, uint64_t key, int w, const Entry cur[2], const uint64_t keys[2]) {
    return slot_in(S, bucket_at(S, key, S->cards_left), w, cur, keys);
}

/*
 * A zeroed table of `bytes`, aligned to a cache line; *raw is what to free.
 * Tables of 2 MB and more are aligned to 2 MB and asked for huge pages (Linux,
 * transparent huge pages in "madvise" mode): each probe lands on a random
 * page, and with 4 KB pages nearly every probe of a big table also misses the
 * TLB (measured: 8 cards, seed 2, 4 GB, one thread, 219 s -> 208 s side by side).
 * The hint is ignored where huge pages are off.
 */
#define HUGE_PAGE ((size_t)2 << 20)
static Entry *table_alloc(size_t bytes, void **raw) {
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
    /* calloc takes big blocks straight from mmap: their pages are untouched until used */
    *raw = calloc(bytes + align, 1);
    if (!*raw) return NULL;
    uintptr_t a = ((uintptr_t)*raw + align - 1) & ~(uintptr_t)(align - 1);
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE) madvise((void *)a, bytes, MADV_HUGEPAGE);
#endif
    return (Entry *)a;
}

/*
 * The main table of a Solver of its own grows in place: its memory (the
 * whole bound, rounded down to a power of two entries) is asked for once and
 * left untouched until used, the table starts in its first 32 K entries and
 * doubles there when 3/4 full.  Doubling adds the next bit of the key to the
 * bucket index, so an entry either stays or moves to its bucket's twin in the
 * new half, which is still empty: nothing is lost, nothing is copied but the
 * entries that move, and the table never takes more than the bound (a table
 * that moved to a new block of twice its size held both at once, 1.5 times
 * the bound, which the out-of-memory killer ended on a one-thread 9-card solve).
 */
/*
 * A table that fits the processor's last cache (TT_CACHE_BYTES: half of 32 MB) leaves it
 * only after TT_GROW_STORES stores per slot (counted since the statistics were last
 * reset), however full: its probes are hits in that cache, and a 7-card solve (2.3 M
 * entries, 4.4 M stores) whose table grew to 128 MB waited for main memory and for the
 * kernel zeroing the pages (6% of the solve).  Out of the cache, a table grows when 3/4
 * full again (at 8 cards a bigger table pays).
 */
#ifndef TT_CACHE_BYTES
#define TT_CACHE_BYTES ((size_t)16 << 20)
#endif
#ifndef TT_GROW_STORES
#define TT_GROW_STORES 16
#endif
static inline uint64_t grow_stores(size_t n) {
    size_t now = n * sizeof(Entry);
    return now <= TT_CACHE_BYTES && 2 * now > TT_CACHE_BYTES ? (uint64_t)TT_GROW_STORES * n : 0;
}

#ifndef TT_START_ENTRIES
#define TT_START_ENTRIES (1u << 15)
#endif
static int reserve_tt(Solver *S) {
    size_t cap = 64;
    while (2 * cap * sizeof(Entry) <= S->tt_limit_bytes - S->tt2_bytes) cap *= 2;
    /* a bound beyond what the system will reserve (more than its memory): the most it will */
    while (!(S->tt = table_alloc(cap * sizeof(Entry), &S->tt_raw)) && cap > 64) cap /= 2;
    if (!S->tt) return -1;
    size_t n = cap < TT_START_ENTRIES ? cap : TT_START_ENTRIES;
    S->tt_cap = cap;
    S->tt_mask = n - 1;
    S->tt_bytes = n * sizeof(Entry);
    S->tt_entries = 0;
    S->tt_grow_at = n < cap ? n / 4 * 3 : UINT64_MAX;
    S->tt_grow_stores = grow_stores(n);
    return 0;
}

/* no Python calls here: it runs inside the search, without the GIL */
static void grow_tt(Solver *S) {
    size_t n = (size_t)S->tt_mask + 1;
    for (size_t i = 0; i < n; i++) {
        Entry x;
        uint64_t k = entry_load(S->tt + i, &x);
        if (!k || !(k & n)) continue;
        entry_store(S->tt + i + n, k, &x);
        __atomic_store_n(&S->tt[i].lock, 0, __ATOMIC_RELAXED);
    }
    n *= 2;
    S->tt_mask = n - 1;
    S->tt_bytes = n * sizeof(Entry);
    S->tt_grow_at = n < S->tt_cap ? n / 4 * 3 : UINT64_MAX;
    S->tt_grow_stores = grow_stores(n);
}


/*
 * Saving the table's biggest proofs with a checkpoint (a long solve in
 * pieces): the entries of the main table whose subtrees are the biggest,
 * at most `max` of them, as (key, move, check, data) records.  A resumed
 * null-window test then finds the subtrees its earlier run finished and
 * searches again only the part it had not.  Not while this Solver
 * searches (its table may grow and move); a shared table never moves, so
 * the other Solvers sharing it may search meanwhile (entry_load reads a
 * slot being written as a miss).
 */
static size_t table_dump(const Solver *S, uint64_t *out, size_t max) {
    if (!S->tt || !max) return 0;
    size_t n = (size_t)S->tt_mask + 1, count[256] = {0}, kept = 0;
    Entry x;
    for (size_t i = 0; i < n; i++)
        if (entry_load(S->tt + i, &x)) count[x.work]++;
    /* the smallest work w whose entries (with every bigger one) fit in max; the
     * room left goes to the first entries of work w - 1 */
    int w = 256;
    while (w > 0 && kept + count[w - 1] <= max) kept += count[--w];
    size_t room = w > 0 ? max - kept : 0, k = 0;
    for (size_t i = 0; i < n && k < max; i++) {
        uint64_t key = entry_load(S->tt + i, &x);
        if (!key || x.work + 1 < w) continue;
        if (x.work + 1 == w) {
            if (!room) continue;
            room--;
        }
        out[4 * k] = key; out[4 * k + 1] = x.move; out[4 * k + 2] = x.check; out[4 * k + 3] = x.data;
        k++;
    }
    return k;
}

/* put the records of table_dump back (into the main table, of any size): the
 * same key and check is replaced by a subtree at least as big; a new key goes
 * where the search would put it (slot_in: slot 0 the bigger subtree), unless
 * both slots hold bigger ones; returns how many were stored */
static size_t table_load(Solver *S, const uint64_t *rec, size_t n) {
    size_t stored = 0;
    for (size_t i = 0; i < n; i++) {
        if (S->tt_entries > S->tt_grow_at) grow_tt(S);
        uint64_t key = rec[4 * i];
        Entry e, cur[2];
        e.move = rec[4 * i + 1]; e.check = rec[4 * i + 2]; e.data = rec[4 * i + 3];
        if (!key) continue;
        Entry *b = S->tt + (key & S->tt_mask & ~1ULL);
        uint64_t k0 = entry_load(b, cur), k1 = entry_load(b + 1, cur + 1);
        int same = (k0 == key && cur[0].check == e.check) ? 0 : (k1 == key && cur[1].check == e.check) ? 1 : -1;
        if (same >= 0) {
            if (cur[same].work > e.work) continue;
            entry_store(b + same, key, &e);
        } else {
            if (k0 && k1 && cur[0].work > e.work && cur[1].work > e.work) continue;
            uint64_t keys[2] = {k0, k1};
            entry_store(slot_in(S, b, e.work, cur, keys), key, &e);
        }
        stored++;
    }
    return stored;
}

/* a shared table loses a reference (under the GIL); the last frees it */
static void shared_release(SharedTable *t) {
    if (t && --t->refs == 0) {
        free(t->raw);
        free(t);
    }
}

static void free_tables(Solver *S) {
    if (S->shared) {
        if (S->reader) S->shared->readers--;
        S->reader = 0;
        shared_release(S->shared);
        S->shared = NULL;
        S->tt_raw = NULL;
    }
    free(S->tt_raw); S->tt_raw = NULL; S->tt = NULL; S->tt_bytes = 0; S->tt_entries = 0;
    free(S->tt2_raw); S->tt2_raw = NULL; S->tt2 = NULL; S->tt2_bytes = 0; S->tt2_mask = 0;
    free(S->at_raw); S->at_raw = NULL; S->at = NULL; S->at_hint = 0; S->at_mask = 0; S->at_hi_mask = 0; S->at_bytes = 0;
    free(S->st_raw); S->st_raw = NULL; S->st = NULL; S->st_mask = 0; S->st_bytes = 0;
    free(S->ot_raw); S->ot_raw = NULL; S->ot = NULL; S->ot_mask = 0; S->ot_bytes = 0;
}

/*
 * The two tables of its own that the plain search probes at nearly every node, the class
 * table's plain region and the outcome table, are sized to the processor: each takes a quarter
 * of a core's second-level cache, as a power of two from its least (128 KB for the class
 * region, 2^14 entries of 8 bytes, so that AEntry's key check keeps 55 bits; 128 KB for the
 * outcome table) to 2 MB; where the cache's size is not known, as for 2 MB.  Their probes wait
 * on memory wherever they outgrow that cache, and the hosts of this machine have differed.
 * With 2 MB of L2 a core: the class region at 2 MB against
 * 512 KB took 0.966-0.985 the time and at 1 MB 0.97-0.99 (notebook, "A sixth session on 5
 * December"); the outcome table at 1 MB 0.959 and 1.015 the time of 2 MB (notebook, "A later
 * session on 5 December").  With 1 MB a core, 7 cards, endgames 1-20, paired: the class region
 * at 512 KB took 0.913 and 0.939 the time of 2 MB (with 4.7% more nodes), 1 MB 1.021 the time
 * of 512 KB; then the outcome table at 512 KB 0.969 the time of 2 MB, 1 MB 0.991, 256 and
 * 128 KB 0.994 and 0.985 that of 512 KB (notebook, "A ninth session"), and later 256 KB 0.980
 * and 0.987.  With 512 KB a core, where the class region took the whole cache at its least
 * then (512 KB) and the outcome table half: both at 128 KB took 0.924 and 0.913 the time
 * paired at 7 cards (4.4% more nodes) and 0.894 at 8 cards, the class region at 256 KB and
 * the outcome table at 128 KB 0.940 and 0.935 in the same runs (notebook, "A twenty-sixth
 * session").  PARTITION_TABLE_BYTES and OUTCOME_TABLE_BYTES, if defined and not 0, fix them.
 */
#ifndef CACHE_SIZED_DEFAULT
#define CACHE_SIZED_DEFAULT ((size_t)2 << 20) /* the L2 cache assumed where its size is not known */
#endif
#ifndef PARTITION_TABLE_BYTES
#define PARTITION_TABLE_BYTES 0 /* 0: sized to the cache */
#endif
#ifndef OUTCOME_TABLE_BYTES
#define OUTCOME_TABLE_BYTES 0
#endif
/* fixed if not 0, else a quarter of the L2 cache as a power of two from least to 2 MB (see above) */
static size_t cache_sized_bytes(size_t fixed, size_t least) {
    if (fixed) return fixed;
    long l2 = -1;
#ifdef _SC_LEVEL2_CACHE_SIZE
    l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    size_t cache = l2 > 0 ? (size_t)l2 : CACHE_SIZED_DEFAULT;
    size_t b = least;
    while (b < ((size_t)1 << 21) && b * 2 <= cache / 4) b *= 2;
    return b;
}

#ifndef PARTITION_HI_BYTES
#define PARTITION_HI_BYTES (4u << 20) /* the table nodes' region of the class table (0: none): 2^19 entries
                                       * (half that for roots up to PARTITION_HI_SMALL_ROOT cards) */
#endif
#ifndef PARTITION_HI_ROOT
#define PARTITION_HI_ROOT 25 /* the fewest cards in hands at the root for that region: measured slower
                              * at 5 and 6 cards a hand (its page faults); from 25, not 28, so that mode
                              * all's searches of a 7-card root's moves (27) have it too (paired: 7.3%
                              * fewer nodes, 0.96 the time) */
#endif
#ifndef PARTITION_HI_SMALL_ROOT
#define PARTITION_HI_SMALL_ROOT 28 /* up to this many cards in hands at the root (7 a hand), half the region:
                                    * 0.982-0.983 the time in three runs at 7 cards on the Intel host, 1.005
                                    * on the AMD one; at 8 cards the whole region pays (notebook, "A
                                    * twenty-second session") */
#endif
#ifndef PARTITION_MIN
#define PARTITION_MIN 6 /* OPT_PARTITION: the fewest cards left where the abstract table is used */
#endif
#ifndef PARTITION_ROOT
#define PARTITION_ROOT 17 /* OPT_PARTITION: the fewest cards in hand at the root for the table (more than
                           * 4 a hand: the children of a 5-card position, which mode all searches, too) */
#endif
#ifndef PARTITION_MAX
#define PARTITION_MAX 40 /* OPT_PARTITION: and at the nodes with the table up to this many cards left:
                          * every one.  16 until the classes' piles were coarse (pdom) and the classes
                          * gave the table nodes their moves (hint): then, every table node instead of
                          * those up to 16, 8.9% fewer nodes and 0.91 the time at 7 cards (paired), 21%
                          * fewer nodes at 8 (seed 2); earlier, 16 against 12 in the notebook */
#endif

/* team A's count a of a category's cards against team B's b with r still in play, or what it
 * already decides: COUNT_A if A has more whatever the play, COUNT_B if B has */
#define COUNT_A 100
#define COUNT_B 101
static inline uint64_t count_key(int a, int b, int r) { return a > b + r ? COUNT_A : b > a + r ? COUNT_B : (uint64_t)a; }

/*
 * OPT_PDENARI: whether a Denari card's suit can now move nothing but the
 * primiera: the Denari category is won (dk, count_key of the Denari, is
 * decided), the settebello and, with re bello, the King of Denari are taken
 * (not in rem, the cards in play), and napola (a run of Denari) is not played.
 * 1 if team A won the Denari, 2 if team B did, 0 if they are not settled.
 */
static inline int denari_settled(const Solver *S, uint64_t rem, uint64_t dk) {
    if (!(OPTS(S) & OPT_PDENARI) || RULE(S, napola)) return 0;
    if ((rem >> SETTEBELLO & 1) || (RULE(S, re_bello) && (rem >> RE_BELLO & 1))) return 0;
    return dk == COUNT_A ? 1 : dk == COUNT_B ? 2 : 0;
}

/* OPT_PDOM: a majority's part of the piles' state, an ordinal that grows with team A's lead a - b
 * (a, b: the teams' counts of the category's cards, r of them still in play): 0 if B has the
 * majority whatever the play, top if A has, else a - b + top / 2; -1 if that does not fit between
 * (then the counts stay in the key).  The category's point at every leaf grows with a - b. */
static inline int lead_ordinal(int a, int b, int r, int top) {
    if (a > b + r) return top;
    if (b > a + r) return 0;
    int o = a - b + top / 2;
    return o >= 1 && o < top ? o : -1;
}

/*
 * OPT_PARTITION: the key of the abstract position (see AEntry): the cards in
 * play, Denari by card and the others by rank (the additive hash za), and of
 * the piles team A's card count and Denari.  Once the Denari are settled
 * (OPT_PDENARI), the Denari in play are keyed by rank like the others, and of
 * the Denari in the piles only who won them and who holds the settebello (and
 * re bello) is kept.  With OPT_PPILES the piles' counts are kept only while
 * they can still change their category, and without napola the piles' Denari
 * by their count and who holds the settebello (and re bello): which other
 * Denari a team holds moves only the primiera, which the class's bounds allow
 * for.  With OPT_PDOM too, the two counts leave the key for *state, the
 * piles' state its entry keeps (see AEntry); *state is 0 without it.
 */
static inline uint64_t abstract_key(const Solver *S, int *state) {
    uint64_t pa = S->pile[0], pb = S->pile[1], z = S->za, mover = ZMOVER[S->to_move][S->last + 1];
    uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
    int ppiles = (OPTS(S) & OPT_PPILES) != 0;
    int na = popc(pa), nb = popc(pb), nr = popc(rem);
    int da = popc(pa & DENARI_MASK), db = popc(pb & DENARI_MASK), dr = popc(rem & DENARI_MASK);
    uint64_t dk = count_key(da, db, dr);
    /* who holds the settebello and, with re bello, the King of Denari: two bits */
    uint64_t holders = (pa >> SETTEBELLO & 1) | (RULE(S, re_bello) ? (pa >> RE_BELLO & 1) << 1 : 0);
    int won = denari_settled(S, rem, dk);
    /* OPT_PDOM: the leads in the entry, not in the key (the Denari's not at all once they are won);
     * a key with them and one without differ by bit 60 of what is mixed in */
    int dom = (OPTS(S) & OPT_PDOM) && ppiles && !RULE(S, napola);
    int co = dom ? lead_ordinal(na, nb, nr, ASTATE_CARDS_TOP) : -1;
    int dor = dom && !won ? lead_ordinal(da, db, dr, ASTATE_DENARI_TOP) : 0;
    uint64_t domk = co >= 0 && dor >= 0;
    *state = domk ? co | dor << ASTATE_CARDS_BITS : 0;
    uint64_t count = domk ? 0 : ppiles ? count_key(na, nb, nr) : (uint64_t)na;
    if (domk) dk = 0;
    if (won) {
        for (int l = 0; l < 5; l++)
            for (uint64_t m = (l < 4 ? S->hand[l] : S->table) & DENARI_MASK; m; m &= m - 1) {
                int c = __builtin_ctzll(m); /* c + 1: the same rank in another suit */
                z += ZA[c + 1][l] - ZA[c][l];
            }
        /* won is 1 or 2: two bits, then the holders */
        return z ^ mover ^ mix64((uint64_t)won ^ holders << 2 ^ count << 40 ^ domk << 60 ^ 0x13198A2E03707344ULL);
    }
    if (ppiles && !RULE(S, napola)) /* dk is at most 101: seven bits, then the holders */
        return z ^ mover ^ mix64(dk ^ holders << 8 ^ count << 40 ^ domk << 60 ^ 0x452821E638D01377ULL);
    return z ^ mover ^ mix64((pa & DENARI_MASK) ^ count << 40 ^ 0x243F6A8885A308D3ULL);
}

/*
 * OPT_PARTITION: the slot of ak.  The table nodes (above the plain search) have a
 * region of their own: in one region of 1 MB the plain search's many class
 * entries overwrote theirs, which stand for bigger subtrees (7 cards, endgames
 * 1-5: 8.5% fewer nodes with a region of 8 MB of 16-byte entries for them, measured
 * in the notebook).  Each thread keeps its own (shared by two threads it measured no faster).
 * With OPT_HINT that region's slots are pairs: the entry, then the class's move (hint_slot).
 */
static inline AEntry *abstract_slot(const Solver *S, uint64_t ak) {
    if (S->cards_left > S->small && S->at_hi_mask)
        return S->at + S->at_mask + 1 + ((ak & S->at_hi_mask) << S->at_hint);
    return S->at + (ak & S->at_mask);
}

static inline int aentry_is(AEntry e, uint64_t ak) { return ((e ^ ak) >> AENTRY_DATA) == 0; }
/* an entry's bounds: -TT_NONE, TT_NONE when it has none */
static inline int aentry_lo(AEntry e) { int x = (int)(e & 63); return x ? x - ABOUND_MID : -TT_NONE; }
static inline int aentry_hi(AEntry e) { int x = (int)(e >> 6 & 63); return x ? ABOUND_MID - x : TT_NONE; }
static inline int aentry_state(AEntry e) { return (int)(e >> ASTATE_AT & ((1 << ASTATE_BITS) - 1)); }
/* what a majority's point can lose where team A's lead is the ordinal x instead of ex (lead_ordinal's,
 * 0 and top: decided): nothing if A leads by as much or more; else at most 2 (from +1 to -1).  With
 * both open, a lead d cards less: where the category's cards in the deal are even in number (40
 * cards, 10 Denari: every whole deal), a leaf's lead is even, so a lead two less turns a win into a
 * tie or a tie into a loss: one point for each two cards; where they are odd (a position made
 * without every card: `odd`), a leaf's lead is odd and two cards less turn a win into a loss */
static inline int lead_pen(int x, int ex, int top, int odd) {
    if (x >= ex) return 0;
    if (ex == top || x == 0) return 2;
    int d = odd ? ex - x : (ex - x + 1) / 2;
    return d < 2 ? d : 2;
}
/* how much a lower bound kept for the piles' state es must be lowered to hold at state s (an upper
 * bound: astate_pen(es, s, odd), raised); 0 where A leads both majorities at s by as much as at es
 * or more (pile dominance).  odd: S->odd_totals (an entry and a node of one class are of one deck:
 * a position without every card keys its deck into za) */
static inline int astate_pen(int s, int es, int odd) {
    return lead_pen(s & ASTATE_CARDS_TOP, es & ASTATE_CARDS_TOP, ASTATE_CARDS_TOP, odd & 1) +
           lead_pen(s >> ASTATE_CARDS_BITS, es >> ASTATE_CARDS_BITS, ASTATE_DENARI_TOP, odd >> 1);
}

/* OPT_PARTITION: the plain search's slot of ak (abstract_slot's for a node of the plain search,
 * whose region is always the first: worked out once a node, not at each use) */
static inline AEntry *abstract_slot_plain(const Solver *S, uint64_t ak) { return S->at + (ak & S->at_mask); }

/* OPT_PARTITION: the entry of the abstract key ak (its slot: abstract_slot's) in *e; 0 if none */
static inline int abstract_probe(const AEntry *slot, uint64_t ak, AEntry *e) {
    *e = *slot;
    return aentry_is(*e, ak);
}

/* OPT_PARTITION: a lower (is_lo) or upper bound rel (the scope difference taken out) for ak, proven
 * for the piles' state `state` (one entry a slot, always replaced: measured as good as two with the
 * bigger subtree kept; an entry of another state is replaced whole, which a replay of one solve's
 * class visits found nearly as good as a state for each bound) */
static inline void abstract_store(Solver *S, AEntry *slot, uint64_t ak, int state, int is_lo, int rel) {
    if (rel <= -ABOUND_MID || rel >= ABOUND_MID) return; /* out of the entry's range: not kept */
    AEntry e = *slot;
    if (!aentry_is(e, ak) || aentry_state(e) != state)
        e = (ak & ~(((uint64_t)1 << AENTRY_DATA) - 1)) | (uint64_t)state << ASTATE_AT; /* no bounds */
    if (is_lo) { if (rel > aentry_lo(e)) e = (e & ~(uint64_t)63) | (uint64_t)(rel + ABOUND_MID); }
    else if (rel < aentry_hi(e)) e = (e & ~(uint64_t)(63 << 6)) | (uint64_t)(ABOUND_MID - rel) << 6;
    *slot = e;
    S->at_stores++;
}

#ifndef SMALL_TABLE_BYTES
#define SMALL_TABLE_BYTES (1u << 20) /* OPT_SMALLTT */
#endif
#ifndef DEEP_TABLE_BYTES
#define DEEP_TABLE_BYTES (4u << 20)
#endif
/* the size of a small table of its own (deeptt's, the partition table): want, or a quarter of a
 * smaller memory bound, and 64 entries at least */
static size_t small_table_bytes(size_t want, size_t limit_bytes, size_t entry) {
    while (want > limit_bytes / 4 && want > 64 * entry) want /= 2;
    return want;
}

static int alloc_tt(Solver *S) {
    if ((OPTS(S) & OPT_DEEPTT) && (OPTS(S) & OPT_SMALL) && !S->tt2) {
        /* a quarter of the memory at most; the main table has the rest */
        size_t bytes = small_table_bytes(DEEP_TABLE_BYTES, S->tt_limit_bytes, sizeof(Entry));
        S->tt2 = table_alloc(bytes, &S->tt2_raw);
        if (!S->tt2) { PyErr_NoMemory(); return -1; }
        S->tt2_bytes = bytes;
        S->tt2_mask = bytes / sizeof(Entry) - 1;
    }
    /* below PARTITION_ROOT cards in hand a solve takes milliseconds, less than the table's page faults */
    if ((OPTS(S) & OPT_PARTITION) && !S->at && S->cards_left >= PARTITION_ROOT) {
        /* --memory bounds the transposition table: this small one comes on top */
        /* 2^14 slots at least: with the key's bits from 23 that an entry keeps, 55 bits of it are checked (AEntry) */
        size_t least = ((size_t)1 << 14) * sizeof(AEntry);
        size_t want = cache_sized_bytes(PARTITION_TABLE_BYTES, least);
        size_t bytes = small_table_bytes(want, S->tt_limit_bytes, sizeof(AEntry));
        if (bytes < least) bytes = least;
        /* the table nodes' region: within a quarter of the memory bound with the rest, or none;
         * with OPT_HINT each of its slots is followed by its class's move (as many bytes again) */
        int hint = (OPTS(S) & OPT_HINT) != 0;
        size_t hi = S->cards_left < PARTITION_HI_ROOT         ? 0
                    : S->cards_left <= PARTITION_HI_SMALL_ROOT ? PARTITION_HI_BYTES / 2
                                                               : PARTITION_HI_BYTES;
        while (hi && bytes + (hi << hint) > S->tt_limit_bytes / 4) hi = hi / 2 >= least ? hi / 2 : 0;
        S->at_hint = hi && hint;
        size_t hints = S->at_hint ? hi : 0;
        S->at = (AEntry *)table_alloc(bytes + hi + hints, &S->at_raw);
        if (!S->at) { PyErr_NoMemory(); return -1; }
        S->at_mask = bytes / sizeof(AEntry) - 1;
        S->at_hi_mask = hi ? hi / sizeof(AEntry) - 1 : 0;
        S->at_bytes = bytes + hi + hints;
    }
    if ((OPTS(S) & OPT_SMALLTT) && (OPTS(S) & OPT_SMALL) && !S->st && S->cards_left >= PARTITION_ROOT) {
        /* --memory bounds the transposition table: this small one comes on top */
        size_t bytes = small_table_bytes(SMALL_TABLE_BYTES, S->tt_limit_bytes, sizeof(SEntry));
        S->st = (SEntry *)table_alloc(bytes, &S->st_raw);
        if (!S->st) { PyErr_NoMemory(); return -1; }
        S->st_mask = bytes / sizeof(SEntry) - 1;
        S->st_bytes = bytes;
    }
    if ((OPTS(S) & OPT_OUTCOMES) && (OPTS(S) & OPT_LAST) && !S->ot && S->cards_left > 5) {
        /* --memory bounds the transposition table: this small one comes on top (its pages are
         * touched only as it fills, so a small solve pays for few of them) */
        size_t want = cache_sized_bytes(OUTCOME_TABLE_BYTES, (size_t)1 << 17);
        size_t bytes = small_table_bytes(want, S->tt_limit_bytes, sizeof(OEntry));
        S->ot = (OEntry *)table_alloc(bytes, &S->ot_raw);
        if (!S->ot) { PyErr_NoMemory(); return -1; }
        S->ot_mask = bytes / sizeof(OEntry) - 1;
        S->ot_bytes = bytes;
    }
    if (S->tt) return 0;
    if (reserve_tt(S) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}


/* a new shared table of at most `bytes` (a power of two entries), zeroed, one reference */
static SharedTable *shared_new(size_t bytes) {
    SharedTable *t = (SharedTable *)calloc(1, sizeof *t);
    if (!t) return NULL;
    size_t n = 64;
    while (2 * n * sizeof(Entry) <= bytes) n *= 2;
    t->tt = table_alloc(n * sizeof(Entry), &t->raw);
    if (!t->tt) { free(t); return NULL; }
    t->mask = n - 1;
    t->bytes = n * sizeof(Entry);
    t->refs = 1;
    return t;
}

/* search with the shared table `t` from now on (one more reference to it) */
static void use_shared(Solver *S, SharedTable *t) {
    free_tables(S);
    t->refs++;
    S->shared = t;
    S->tt = t->tt;
    S->tt_mask = t->mask;
    S->tt_bytes = t->bytes;
    S->tt_grow_at = UINT64_MAX; /* the other threads search in it: it never moves */
}

#endif /* SCOPONE_TABLE_H */
