/*
 * The search core's types: the options, a move, a table entry, the Solver
 * (a Python object: the binding is _core.c) and the state it searches.
 *
 * The core is one translation unit: _core.c includes these headers once each,
 * in the order of their dependencies (solver.h, bits.h, score.h, moves.h,
 * bounds.h, table.h, node.h, lastround.h, plain.h, search.h), so the compiler
 * inlines across them; and net.h, the value network's forward pass, apart.
 *
 * Measurements cited as (notebook, "...") are in docs/solver-notebook.md, in the part that opens with those words.
 */
#ifndef SCOPONE_SOLVER_H
#define SCOPONE_SOLVER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#define MAXPLY 44
#define MOVE_STACK (1 << 17)
#define NO_MOVE UINT64_MAX
#define ALL40 ((1ULL << 40) - 1)
#define DENARI_MASK 0x1111111111ULL
#define SETTEBELLO 24
#define RE_BELLO 36

/* search options (bit flags); OPT_DEFAULT is everything that pays */
#define OPT_ORDER 1    /* TT move first, then heuristic order: scope, captures */
#define OPT_EQUIV 2    /* play one of several interchangeable cards only */
#define OPT_BOUNDS 4   /* cut when the window is outside what is still possible */
#define OPT_SUMMARY 8  /* key on a summary of the piles, values relative to decided points */
#define OPT_HISTORY 16 /* history heuristic for quiet moves (off by default: it costs nodes) */
#define OPT_SMALL 32  /* plain search of the last SMALL_CARDS cards, no table */
#define OPT_KILLER 64 /* the card that last cut at this depth first, after the TT move */
#define OPT_TIGHT 128 /* tighter sure bounds: per-category ranges, scope by sweep runs, no scopa by a mover
                       * who cannot sweep */
#define OPT_SMALLBOUNDS 256 /* sure bounds in the plain search of the last rounds too */
#define OPT_LAST 512 /* the last round played out directly */
#define OPT_RANGE 1024 /* bounds in the plain search from the categories still open (narrowed after captures,
                        * in the last round too) */
#define OPT_SMALLEQUIV 2048 /* equivalent cards in the plain search too */
#define OPT_DEEPTT 4096 /* with OPT_SMALL: the table down to DEEPTT_MIN cards left, the plain search below */
#define OPT_ORDER2 8192 /* with OPT_ORDER: captures by scopa, settebello, Denari, cards; lay-downs over 10 first */
#define OPT_CANON 16384 /* with OPT_SUMMARY: primiera keyed on the fixed suits' sum and the open suits' values */
#define OPT_NOSCOPA 32768 /* no scopa is left once a table card outranks every card in hand */
#define OPT_DOMINANCE 65536 /* bounds of the same cards in play with piles worse or better for A */
#define OPT_ABDADA 131072 /* threads sharing a table: a move another thread is searching is searched last */
#define OPT_QUASI 262144 /* a card of the same rank and capture as one searched, both not Denari, is skipped
                          * when that one's value clears the window by 2 (their suits can move the value
                          * by the primiera point only) */
#define OPT_PARTITION 524288 /* a second table keyed on the position with the suits of the cards that are not
                              * Denari erased: bounds for every position of the class, given the primiera's
                              * range (issue 15, partition search; see AEntry) */
#define OPT_ETC 1048576 /* enhanced transposition cutoff: before searching a node's moves, look for a
                         * child whose table entry already cuts the node off */
#define OPT_PDENARI 2097152 /* with OPT_PARTITION: once the Denari are won and the settebello taken, the
                             * class forgets the Denari cards' suits too */
#define OPT_PPILES 4194304 /* with OPT_PARTITION: the class keeps of the piles only what can still change a
                            * category (counts while open, the Denari by count and the settebello's holder) */
#define OPT_SMALLTT 8388608 /* the plain search keeps bounds of exact positions from SMALLTT_MIN cards left in a
                            * small table of its own (cache-sized; no pile summary, so a node costs little) */
#define OPT_HINT 16777216 /* with OPT_PARTITION: the table nodes keep in their class's slot the move that cut there,
                           * which the class's other positions try first when the table has no move for them */
#define OPT_SHALLOW 33554432 /* with OPT_ORDER: near the root, a table node with no table move orders its moves by a
                             * two-ply minimax of the piles (the move and the best reply) where the window is
                             * near the points decided so far, see shallow_order and SHALLOW_MARGIN */
#define OPT_ROOTSIZE 67108864 /* with OPT_ORDER: at the root, of the moves that fail by as much as the best one, the
                              * one with the biggest subtree is kept as the table's move (the next test's first):
                              * 4.2%, 2.4% and 1.2% fewer nodes at 7, 6 and 5 cards, the same at 8 (notebook) */
#define OPT_OUTCOMES 134217728 /* with OPT_LAST: a node before the last round (its mover holds two cards, every other
                               * seat one) keeps in a table of its own, by its exact cards, where each of its plays
                               * leads (the rest is forced; the piles do not change it), so that the same cards met
                               * again with other piles are scored without playing them (see OEntry) */
#define OPT_PDOM 268435456 /* with OPT_PPILES: the class key leaves out by how much each team leads the card and
                           * Denari majorities, and its entry keeps them instead: a lower (upper) bound holds
                           * where team A leads both by as much or more (less); see AEntry */
#define OPT_CHILDREN 536870912 /* with OPT_ORDER: from CHILDREN_MIN cards left, a table node puts first the moves
                               * whose child's table entry already proves a cut-off, and last those whose entry
                               * proves they fail (see child_order) */
#define OPT_ORANKS 1073741824 /* with OPT_OUTCOMES: the outcome table keyed by the ranks of the cards in each place; a
                               * node that finds the entry of another with the same ranks takes its lines over, each
                               * card moved to the one of its rank in the same place (see outcome_retarget) */
#define OPT_ALL 2147483647
/* history and killers cost nodes here; bounds in the plain search cost more time than they save */
/* off by default, as measured by benchmarks/solve.py: deeptt halves the nodes but its table
 * nodes cost more than they save on one thread; order2 costs nodes; canon saves almost none; etc saves
 * 5% of the nodes at 7 cards, but its probes of the children's slots wait for memory and cost as much
 * time; smalltt saves 12% of the nodes at 7 cards and 9% at 8, but costs as much time (the plain search's
 * nodes are cheap, and most of what it finds are subtrees of a few nodes) */
#define OPT_DEFAULT (OPT_ALL & ~OPT_HISTORY & ~OPT_KILLER & ~OPT_SMALLBOUNDS & ~OPT_DEEPTT & ~OPT_ORDER2 & ~OPT_CANON & ~OPT_QUASI & ~OPT_ETC & ~OPT_SMALLTT)

/*
 * The search reads the options and the rules' switches through OPTS and RULE.  A build with
 * CORE_STANDARD (setup.py's standard module, see _core_std.c) is for the default options and the
 * standard rules only (the Solver refuses others): there they are constants, and the compiler
 * drops every branch they turn off (the same nodes, 0.92-0.95 the time at 7 cards, notebook).
 */
#ifdef CORE_STANDARD
#define OPTS(S) OPT_DEFAULT
#define RULE(S, name) STANDARD_##name
#define STANDARD_strict 1
#define STANDARD_apt 0
#define STANDARD_asso_scopa 0
#define STANDARD_asso_takes_asso 1
#define STANDARD_prim_sum 0
#define STANDARD_re_bello 0
#define STANDARD_napola 0
#define STANDARD_quindici 0
#else
#define OPTS(S) ((S)->opts)
#define RULE(S, name) ((S)->name)
#endif

typedef struct {
    uint64_t cap;   /* captured table cards, 0 = laid down */
    int32_t card;
    int32_t score;  /* ordering score */
} Move;

/*
 * 32 bytes: a bucket of two is one aligned 64-byte cache line.  Besides the
 * bounds for its key, an entry keeps one pile of team A its bounds hold for
 * (with that pile's decided points), so that positions with the same cards in
 * play but other piles can use them where the piles are ordered (OPT_DOMINANCE).
 * Threads may share a table without locks: the key is stored xor check, move and
 * a hash of data, so an entry torn by two threads writing it at once decodes to
 * another key and is a miss (entry_seal, entry_load, entry_store).
 */
typedef struct {
    uint64_t lock;   /* the key (hash of the card locations, the mover and the last capturer: it gives
                      * the slot) xor check, move and a hash of data (entry_seal); 0: empty */
    uint64_t move;   /* bits 0-45 the best move (card | captured << 6, all ones: none), 46-53 pile A's
                      * cards 32-39, 54-63 the top bits of the second hash of the locations alone */
    uint64_t check;  /* a second, independent hash of the locations, with the pile summary */
    union {
        struct {
            int8_t lo, hi;   /* bounds relative to the decided points (+-127 = none) */
            uint8_t work;    /* log2 of the subtree size, for replacement */
            int8_t dec;      /* the decided points (scope excluded) of the pile below */
            uint32_t pile_lo; /* pile A's cards 0-31 */
        };
        uint64_t data;
    };
} Entry;
#define TT_NONE 127
#define MOVE_BITS ((1ULL << 46) - 1)

static inline uint64_t entry_move(const Entry *e) {
    uint64_t m = e->move & MOVE_BITS;
    return m == MOVE_BITS ? NO_MOVE : m;
}

static inline uint64_t entry_pile(const Entry *e) {
    return (uint64_t)e->pile_lo | ((e->move >> 46) & 255) << 32;
}

/* an entry's lower (upper) bound for a position with the same cards in play and the scope
 * difference sd: its values are relative to its pile's decided points and the scope; -inf (inf)
 * where it keeps none */
static inline int entry_lo(const Entry *e, int sd, int inf) { return e->lo > -TT_NONE ? e->lo + e->dec + sd : -inf; }
static inline int entry_hi(const Entry *e, int sd, int inf) { return e->hi < TT_NONE ? e->hi + e->dec + sd : inf; }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "entry_set lays out Entry's data word for a little-endian machine"
#endif

/* an entry's move and data (bounds lo, hi, work, dec) for pile A.  The data word is put
 * together in a register: written field by field and then read whole (by entry_seal and the
 * store), it waited on the processor's store buffer, which cannot forward several narrow
 * stores to one wide load (the same nodes, 0.984 the time: notebook, "Late on 5 December") */
static inline void entry_set(Entry *e, int lo, int hi, int work, int dec, uint64_t move, uint64_t pile_a,
                             uint64_t loc) {
    e->move = (move == NO_MOVE ? MOVE_BITS : move & MOVE_BITS) | (pile_a >> 32 & 255) << 46 | (loc >> 54) << 54;
    e->data = (uint64_t)(uint8_t)lo | (uint64_t)(uint8_t)hi << 8 | (uint64_t)(uint8_t)work << 16 |
              (uint64_t)(uint8_t)dec << 24 | (pile_a & 0xFFFFFFFFULL) << 32;
}

/* a table several Solvers search with at once (one per thread): counted references, under the GIL */
#ifndef BUSY_SLOTS
#define BUSY_SLOTS 4096
#endif
typedef struct SharedTable {
    void *raw;
    Entry *tt;
    uint64_t mask;
    size_t bytes;
    int refs;
    int readers; /* of refs, the Solvers that only read it (a checkpoint's table reader): they search no share */
    uint64_t busy[BUSY_SLOTS]; /* OPT_ABDADA: keys of the nodes near the roots that threads are searching */
} SharedTable;

/* what decided() found for one (pile A, pile B, cards in play) */
typedef struct {
    uint64_t pa, pb, rem, summary, freec;
    int16_t off, open, chi, clo;
    int16_t pcls;       /* the range [plo, phi] the primiera point can still end in, as PCLS(plo, phi) */
    uint64_t used;
} Decided;

/* a range [lo, hi] of the primiera point (-1..1) as one number 0..10, lo + 1 in bits 2-3 and
 * hi + 1 in bits 0-1 (fields, not base 3: robust_child reads both ends at every move) */
#define PCLS(lo, hi) ((((lo) + 1) << 2) | ((hi) + 1))
#define PCLS_LO(c) (((c) >> 2) - 1)
#define PCLS_HI(c) (((c) & 3) - 1)

/*
 * OPT_PARTITION: an entry of the table of abstract positions (classes).  The key
 * forgets the suit of every card in play that is not Denari (its rank and place
 * stay) and keeps of the piles only team A's cards count and Denari.  Play
 * depends on ranks alone, and the suits of the cards that are not Denari change
 * nothing but the primiera; so the positions of a class have the same game tree
 * and their final values differ only in the primiera point.  Every search proves,
 * besides its value, a bound for the whole class given the range [plo, phi] the
 * primiera point can still end in (the bound minus plo holds for value minus the
 * least primiera of any position of the class); an entry keeps lo = lower bound
 * - plo and hi = upper bound - phi (the scope difference taken out too), and a
 * node of the class with range [plo', phi'] reads lo + plo' and hi + phi'.
 * With OPT_PDENARI, once the Denari are won and the settebello (and re bello)
 * taken, the Denari cards' suits too move nothing but the primiera: the key then
 * forgets them, and keeps of the piles' Denari only who won them and who holds
 * those two cards (abstract_key).  With OPT_PPILES the counts are kept only while
 * they can still change their category, and without napola the piles' Denari by
 * their count and who holds the settebello (and re bello).
 */
/*
 * One 64-bit word: bits 0-5 lo + ABOUND_MID and bits 6-11 ABOUND_MID - hi (0: no bound, so a
 * zeroed entry holds none; bounds beyond +-30 are not kept), bits 12-22 the piles' state the bounds
 * were proven for (OPT_PDOM; 0 without it), bits 23-63 the key's (its low bits are the slot, and a
 * region has 2^14 slots at least, so slot and word hold 55 bits of the key).  8 bytes an entry: the
 * plain search's region takes a quarter of a core's L2 cache (table.h, cache_sized_bytes).
 *
 * OPT_PDOM: the piles' state is the lead of team A in the card majority (6 bits) and in the Denari
 * majority (5 bits), each as lead_ordinal gives it, an ordinal that grows with A's lead.  Positions
 * with the same cards in play whose piles differ only in those leads have the same game tree, and
 * at every leaf the categories are monotone in them: so a lower bound proven for one holds where A
 * leads both by as much or more, an upper bound where by as much or less (pile dominance, as
 * Furtak and Buro's Skat solver keeps it; elsewhere less a penalty: astate_pen).  The key leaves them out, and the entry
 * keeps the state its bounds were proven for (7 cards, endgames 1-20: 5.7% fewer nodes, 0.977 the
 * time, paired; notebook).
 */
typedef uint64_t AEntry;
#define ABOUND_MID 31       /* a bound b is kept as b + 31 (lo) and 31 - b (hi), 6 bits each */
#define ASTATE_CARDS_BITS 6 /* the piles' state: the card lead's ordinal in the low 6 bits ... */
#define ASTATE_CARDS_TOP 63
#define ASTATE_DENARI_TOP 31 /* ... the Denari lead's in the next 5 */
#define ASTATE_AT 12 /* the state's first bit in an entry, after the two bounds */
#define ASTATE_BITS 11
#define AENTRY_DATA 23 /* the bits of an entry below the key's */

/*
 * OPT_OUTCOMES: an entry of the outcome table.  A node before the last round (the
 * mover holds two cards, every other seat one) by its exact card locations and mover
 * (k0, k1: see outcome_slot); then each of the mover's plays is one line, since each
 * seat after it holds one card, and where a line ends does not depend on the piles.
 * A line: the cards team A takes (bits 0-39; team B takes the others), unless nobody
 * captures along it (bit 48: the cards go to the node's last capturer, which is why
 * it need not be in the key), the scope each team makes (bits 40-43 A, 44-47 B), bit
 * 63 on a line made.  Only the first line is made when the node is filled; the others
 * are OUTCOME_TODO (the mover's play) until a visit needs them.  A node with more lines
 * than OUTCOME_LINES (a play with a choice between captures), or where a later play
 * has such a choice, is not kept: line[0] is OUTCOME_NONE.
 * 32 bytes, two to a cache line (with six lines and 64 bytes, the same 2 MB held
 * half the nodes, and the few nodes of three lines or more did not make up for it:
 * 7 cards, paired, 0.953 the time with two lines).
 *
 * OPT_ORANKS: the slot comes from the ranks of the cards in each place (the table's
 * as counts, each hand's card) and the mover, not from the cards.  The plays are a
 * matter of ranks, so two such nodes have the same lines once each card of one is
 * matched with the card of the other that has its rank and its place (the table's
 * cards in card order, which sorts them by rank): a node that finds the other's
 * entry moves its lines to its own cards and takes the entry over (outcome_retarget).
 * On 7-card endgames 4 and 8, 4.4 and 11 times fewer rank keys than exact ones were
 * met, and the fills in 2^14 entries went from 1.73 M to 0.79 M and from 1.01 M to
 * 0.17 M (a replay of the keys the search met, notebook, "A tenth session").
 */
#ifndef OUTCOME_LINES
#define OUTCOME_LINES 2
#endif
#define OUTCOME_LINE (1ULL << 63)
#define OUTCOME_NONE (1ULL << 62)
#define OUTCOME_TODO (1ULL << 61) /* a line not made yet: the mover's card (bits 40-45) and capture */
typedef struct OEntry {
    uint64_t k0, k1;
    uint64_t line[OUTCOME_LINES];
} OEntry;

/* OPT_SMALLTT: an entry of the plain search's table (exact positions, see ab_small) */
typedef struct SEntry {
    uint64_t key, check, move;
    int8_t lo, hi;   /* less the scope difference; -TT_NONE, TT_NONE: none */
    int8_t rlo, rhi; /* with them, bounds for the position's class (see Solver.rb), less the scope */
    uint8_t rslo, rshi; /* the primiera ranges (PCLS) those hold for */
    uint8_t pad[2];
} SEntry;
#ifndef DCACHE
#define DCACHE 1024 /* decided_cached's entries: 64 KB (4096, 256 KB, crowded the L2 cache the plain
                     * search's class region lives in: 7 cards, paired, 0.87 and 0.92 the time with 1024,
                     * 0.94 with 256, against 4096; 512 and 2048 alike; notebook, 3 December) */
#endif

/* the position and its hashes first, the big tables (capture patterns, the decided cache) last:
 * the fields the search reads at every node sit near the object's start, in short instructions
 * (plain builds, 7 cards, paired: 0.988 the time; notebook, "the standard module") */
typedef struct {
    PyObject_HEAD
    /* the position being searched */
    uint64_t hand[4], table, pile[2];
    int scope[2], to_move, last, cards_left;
    int odd_totals;   /* OPT_PDOM: bit 0, the deal holds an odd number of cards; bit 1, of Denari (astate_pen) */
    uint64_t z1, z2;  /* Zobrist hashes of the card locations */
    uint64_t za;      /* OPT_PARTITION: additive hash of the card locations, the suits not Denari erased */
    /* rules */
    int strict, apt, asso_scopa, asso_takes_asso, prim_sum, re_bello, napola, quindici;
    /* options */
    int use_tt, opts, small;
    /* transposition table (allocated on first use), or one shared with other Solvers */
    struct SharedTable *shared; /* not NULL: tt is this shared table's (fixed size, never grown) */
    int reader;                 /* shares it only to read it (SharedTable.readers) */
    Entry *tt;
    void *tt_raw; /* what to free: tt is tt_raw aligned to 64 bytes */
    Entry *tt2;   /* OPT_DEEPTT: the nodes of the last DEEPTT_MAX cards have a table of their own */
    void *tt2_raw;
    uint64_t tt2_mask;
    size_t tt2_bytes;
    uint64_t tt_mask, tt_grow_at, tt_grow_stores; /* it grows past tt_grow_at entries and tt_grow_stores stores */
    size_t tt_cap; /* the entries the main table's memory holds (it grows in place up to them) */
    size_t tt_bytes, tt_limit_bytes;
    uint64_t tt_entries;
    /* statistics */
    uint64_t next_check;
    uint64_t nodes, tt_hits, tt_stores, cuts, cut_first, bound_cuts, quasi_skips;
    int root_left; /* cards in the hands at the root */
    int inf; /* the root's value limit (Position.value_limit): every value lies in (-inf, inf) */
    int rb, rs;       /* OPT_PARTITION: with the value v a search just returned, a bound for its class:
                       * a lower bound if v >= beta, an upper bound if v <= alpha (+-inf: none); rs is
                       * the class's primiera range (PCLS), the bound holds for any primiera in it */
    struct SEntry *st; /* OPT_SMALLTT: the plain search's own small table */
    void *st_raw;
    uint64_t st_mask;
    size_t st_bytes;
    uint64_t st_hits;
    OEntry *ot;       /* OPT_OUTCOMES: the outcome table (this Solver's own) */
    void *ot_raw;
    uint64_t ot_mask;
    size_t ot_bytes;
    uint64_t ot_hits, ot_moved; /* ot_moved: of the hits, those taken over from a node of the same ranks */
    AEntry *at;       /* OPT_PARTITION: the table of abstract positions (this Solver's own) */
    void *at_raw;
    int at_hint;      /* OPT_HINT: the table nodes' region holds pairs (class entry, move); 0 if it has none */
    uint64_t at_mask, at_hi_mask;
    size_t at_bytes;
    uint64_t at_hits, at_stores, etc_cuts, hint_hits, shallow_orders;
    uint64_t child_proven; /* OPT_CHILDREN: the moves it found proven to cut or to fail */
    uint64_t at_dom_hits; /* OPT_PDOM: class hits on an entry of other piles' leads */
    uint64_t at_pen_hits; /* OPT_PDOM: those of them where A leads less (a lower bound) or more (an upper one) */
    /* interruption */
    int has_deadline, aborted, py_error; /* py_error: 1 a Python exception is set, 2 too many moves */
    int busy;                            /* a search is running (the GIL is released meanwhile) */
    volatile int stop_requested;         /* set by stop() from another thread: searches give up */
    PyThreadState *tstate;
    struct timespec end;
    /* move stack */
    Move *mstack;
    uint64_t root_key, root_check;
    int root_keyed;
    uint64_t by_left[41]; /* nodes by cards left in the hands */
    uint64_t all_nodes[41], all_moves[41], all_hand[41]; /* searched nodes without a cut-off */
    /* table nodes that cut off on a move after the first (late), and the nodes under the moves they
     * searched in vain before it, each node counted once (at the highest such table node): by cards
     * left, and by how the first move was chosen (the table's move, the class's, the two-ply look,
     * the static order); in_vain is their sum */
    uint64_t late_cuts[41], vain[41], vain_by_order[4], in_vain;
    int32_t history[40][2];
    int killer[44];
    int npat[11];
    uint64_t pat[11][128];
    /* the patterns of value v whose ranks are all among the table's ranks tr: fit[fit_at[v] + (tr & fit_mask[v])] */
    uint64_t fit[11 * 1024][2];
    /* one bit a row of fit: whether any pattern fits (two thirds of the lookups find none, and
     * this bitmap stays in the first-level cache where the rows do not) */
    uint64_t fitnz[11 * 1024 / 64];
    unsigned fit_at[11], fit_mask[11];
    Decided dcache[DCACHE]; /* decided() depends on the piles only: lay-downs and transpositions reuse it */
} Solver;


#endif /* SCOPONE_SOLVER_H */
