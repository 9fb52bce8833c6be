/*
 * The compiled search core of the double-dummy solver.
 *
 * Fail-soft alpha-beta over one deal of Scopone with a transposition table of
 * (lower, upper) bounds.  It computes exactly what scopone.solver.reference
 * computes; the Python wrapper is scopone/solver/core.py.
 *
 * Cards and masks use the Python layout: card = (rank - 1) * 4 + suit, suits
 * D C S B = 0 1 2 3, so the four cards of a rank are one nibble of a mask.
 * The capture rules are not re-derived here: the constructor receives the
 * CP-SAT patterns of scopone.captures (rank counts packed one nibble per rank)
 * and the rules switches, and expands patterns to card sets at search time.
 *
 * Values are always points(A) - points(B) at the end of the deal.  The table
 * stores values relative to the points that can no longer change (scope made
 * so far, categories already won), so positions that differ only in those
 * share an entry; its key is the location of every card still in play plus a
 * summary of team A's pile holding only what can still change the score.
 */
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
#define OPT_TIGHT 128 /* tighter sure bounds: per-category ranges, scope by sweep runs */
#define OPT_SMALLBOUNDS 256 /* sure bounds in the plain search of the last rounds too */
#define OPT_LAST 512 /* the last round played out directly */
#define OPT_RANGE 1024 /* bounds in the plain search from the categories still open at its start */
#define OPT_SMALLEQUIV 2048 /* equivalent cards in the plain search too */
#define OPT_DEEPTT 4096 /* with OPT_SMALL: the table down to DEEPTT_MIN cards left, the plain search below */
#define OPT_ORDER2 8192 /* with OPT_ORDER: captures by scopa, settebello, Denari, cards; lay-downs over 10 first */
#define OPT_CANON 16384 /* with OPT_SUMMARY: primiera keyed on the fixed suits' sum and the open suits' values */
#define OPT_NOSCOPA 32768 /* no scopa is left once a table card outranks every card in hand */
#define OPT_DOMINANCE 65536 /* bounds of the same cards in play with piles worse or better for A */
#define OPT_ALL 131071
/* history and killers cost nodes here; bounds in the plain search cost more time than they save */
/* off by default, as measured by benchmarks/solve.py: deeptt halves the nodes but its table
 * nodes cost more than they save on one thread; order2 costs nodes; canon saves almost none */
#define OPT_DEFAULT (OPT_ALL & ~OPT_HISTORY & ~OPT_KILLER & ~OPT_SMALLBOUNDS & ~OPT_DEEPTT & ~OPT_ORDER2 & ~OPT_CANON)

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
 */
typedef struct {
    uint64_t key;    /* hash of the card locations, the mover and the last capturer (gives the slot); 0: empty */
    uint64_t move;   /* bits 0-45 the best move (card | captured << 6, all ones: none), 46-53 pile A's
                      * cards 32-39, 54-63 the top bits of the second hash of the locations alone */
    uint64_t check;  /* a second, independent hash of the locations, with the pile summary */
    int8_t lo, hi;   /* bounds relative to the decided points (+-127 = none) */
    uint8_t work;    /* log2 of the subtree size, for replacement */
    int8_t dec;      /* the decided points (scope excluded) of the pile below */
    uint32_t pile_lo; /* pile A's cards 0-31 */
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

static inline void entry_set(Entry *e, uint64_t move, uint64_t pile_a, uint64_t loc) {
    e->move = (move == NO_MOVE ? MOVE_BITS : move & MOVE_BITS) | (pile_a >> 32 & 255) << 46 | (loc >> 54) << 54;
    e->pile_lo = (uint32_t)pile_a;
}

/* what decided() found for one (pile A, pile B, cards in play) */
typedef struct {
    uint64_t pa, pb, rem, summary, freec;
    int16_t off, open, chi, clo;
    uint64_t used;
} Decided;
#define DCACHE 4096

typedef struct {
    PyObject_HEAD
    /* rules */
    int strict, apt, asso_scopa, asso_takes_asso, prim_sum, re_bello, napola, quindici;
    int npat[11];
    uint64_t pat[11][128];
    uint64_t fit[11][1024][2]; /* patterns whose ranks are all among a set of table ranks */
    /* options */
    int use_tt, opts, small;
    /* transposition table (allocated on first use) */
    Entry *tt;
    void *tt_raw; /* what to free: tt is tt_raw aligned to 64 bytes */
    Entry *tt2;   /* OPT_DEEPTT: the nodes of the last SMALL_CARDS cards have a table of their own */
    void *tt2_raw;
    uint64_t tt2_mask;
    size_t tt2_bytes;
    uint64_t tt_mask, tt_grow_at;
    size_t tt_bytes, tt_limit_bytes;
    uint64_t tt_entries;
    /* statistics */
    uint64_t next_check;
    uint64_t nodes, tt_hits, tt_stores, cuts, cut_first, bound_cuts;
    uint64_t by_left[41]; /* nodes by cards left in the hands */
    uint64_t all_nodes[41], all_moves[41], all_hand[41]; /* searched nodes without a cut-off */
    /* the position being searched */
    uint64_t hand[4], table, pile[2];
    int scope[2], to_move, last, cards_left;
    int inf; /* the root's value limit (Position.value_limit): every value lies in (-inf, inf) */
    uint64_t z1, z2;  /* Zobrist hashes of the card locations */
    /* interruption */
    int has_deadline, aborted, py_error; /* py_error: 1 a Python exception is set, 2 too many moves */
    int busy;                            /* a search is running (the GIL is released meanwhile) */
    volatile int stop_requested;         /* set by stop() from another thread: searches give up */
    PyThreadState *tstate;
    struct timespec end;
    /* move stack */
    Move *mstack;
    int32_t history[40][2];
    int killer[44];
    uint64_t root_key, root_check;
    int root_keyed;
    Decided dcache[DCACHE]; /* decided() depends on the piles only: lay-downs and transpositions reuse it */
} Solver;

/* ------------------------------------------------------------------ tables */
static uint64_t Z1[40][5], Z2[40][5];
static uint64_t ZMOVER[4][3], ZMOVER2[4][3]; /* the seat to move and the last capturer (-1, 0, 1) */
static uint8_t SUBS[16][5][6], NSUBS[16][5]; /* subsets of a nibble by size */
static uint8_t LOWBITS[16][5];                /* the k lowest bits of a nibble */
static uint8_t GATHER[4][256];                /* 2 suit bits of one byte (2 ranks) */
static uint8_t BESTPV[1024];                  /* best primiera value of a 10-bit suit set */
static uint8_t PVLEVEL[22];                   /* primiera value -> level 0..8 */
static uint16_t RANKS_UPTO[22];               /* ranks (bit r-1) whose primiera value <= v */
static uint64_t SCATTER[1024];                /* 10-bit Denari set -> 40-bit mask (shift for a suit) */
static const int PV[11] = {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10};

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static void init_tables(void) {
    uint64_t s = 0x5C0B0E5C0B0E1234ULL;
    for (int c = 0; c < 40; c++)
        for (int l = 0; l < 5; l++) { Z1[c][l] = splitmix(&s); Z2[c][l] = splitmix(&s); }
    for (int m = 0; m < 4; m++)
        for (int l = 0; l < 3; l++) { ZMOVER[m][l] = splitmix(&s); ZMOVER2[m][l] = splitmix(&s); }
    for (int n = 0; n < 16; n++) {
        for (int sub = 0; sub < 16; sub++) {
            if ((sub & n) != sub) continue;
            int k = __builtin_popcount(sub);
            SUBS[n][k][NSUBS[n][k]++] = (uint8_t)sub;
        }
        for (int k = 0; k <= 4; k++) {
            int out = 0, got = 0;
            for (int b = 0; b < 4 && got < k; b++)
                if (n >> b & 1) { out |= 1 << b; got++; }
            LOWBITS[n][k] = (uint8_t)out;
        }
    }
    for (int st = 0; st < 4; st++)
        for (int b = 0; b < 256; b++)
            GATHER[st][b] = (uint8_t)(((b >> st) & 1) | (((b >> (4 + st)) & 1) << 1));
    for (int m = 0; m < 1024; m++) {
        int best = 0;
        for (int r = 1; r <= 10; r++)
            if (m >> (r - 1) & 1 && PV[r] > best) best = PV[r];
        BESTPV[m] = (uint8_t)best;
    }
    for (int v = 0; v < 22; v++)
        for (int r = 1; r <= 10; r++)
            if (PV[r] <= v) RANKS_UPTO[v] |= (uint16_t)(1 << (r - 1));
    for (int m = 0; m < 1024; m++)
        for (int r = 0; r < 10; r++)
            if (m >> r & 1) SCATTER[m] |= 1ULL << (4 * r);
    static const int levels[9] = {0, 10, 12, 13, 14, 15, 16, 18, 21};
    for (int i = 0; i < 9; i++) PVLEVEL[levels[i]] = (uint8_t)i;
}

/* the 10 cards of suit st in a mask, bit r-1 = rank r */
static inline unsigned suit10(uint64_t m, int st) {
    const uint8_t *g = GATHER[st];
    return g[m & 255] | g[(m >> 8) & 255] << 2 | g[(m >> 16) & 255] << 4 |
           g[(m >> 24) & 255] << 6 | g[(m >> 32) & 255] << 8;
}

/* per-nibble popcount: rank counts packed one nibble per rank */
static inline uint64_t rank_counts(uint64_t m) {
    m = m - ((m >> 1) & 0x5555555555ULL);
    return (m & 0x3333333333ULL) + ((m >> 2) & 0x3333333333ULL);
}

/* portable builds have no popcnt instruction, and __builtin_popcountll becomes a
 * libgcc call there: count bits in registers instead (cards use 40 bits) */
#if defined(__POPCNT__) || defined(__aarch64__)
static inline int popc(uint64_t m) { return __builtin_popcountll(m); }
#else
static inline int popc(uint64_t m) {
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}
#endif

/* ------------------------------------------------------------------ scoring */
static inline int more(int a, int b) { return (a > b) - (b > a); }

static int napola_points(uint64_t pile) {
    int run = 0;
    while (run < 10 && (pile >> (4 * run) & 1)) run++;
    return run >= 3 ? run : 0;
}

/* the best primiera value of each suit of a mask (0: no card of the suit) */
static inline void best_pv4(uint64_t m, int out[4]) {
    static const uint8_t ORDER[7] = {7, 6, 1, 5, 4, 3, 2};
    out[0] = out[1] = out[2] = out[3] = 0;
    unsigned done = 0;
    for (int i = 0; i < 7; i++) {
        int r = ORDER[i];
        unsigned nib = (unsigned)(m >> (4 * (r - 1))) & 15 & ~done;
        if (nib) {
            done |= nib;
            for (; nib; nib &= nib - 1) out[__builtin_ctz(nib)] = PV[r];
            if (done == 15) return;
        }
    }
    unsigned nib = (unsigned)((m >> 28) | (m >> 32) | (m >> 36)) & 15 & ~done; /* 8, 9, 10 */
    for (; nib; nib &= nib - 1) out[__builtin_ctz(nib)] = 10;
}

/* primiera point of the final piles: +1 A, -1 B, 0 none */
static int primiera_final(const Solver *S, uint64_t pa, uint64_t pb) {
    int ta = 0, tb = 0, ca = 1, cb = 1, va[4], vb[4];
    best_pv4(pa, va);
    best_pv4(pb, vb);
    for (int st = 0; st < 4; st++) {
        int a = va[st], b = vb[st];
        ta += a; tb += b;
        if (!a) ca = 0;
        if (!b) cb = 0;
    }
    if (S->prim_sum || (ca && cb)) return more(ta, tb);
    if (ca != cb) return ca ? 1 : -1;
    return 0;
}

/* points(A) - points(B) of the piles, scope excluded */
static int score_piles(const Solver *S, uint64_t pa, uint64_t pb) {
    int v = more(popc(pa), popc(pb));
    v += more(popc(pa & DENARI_MASK), popc(pb & DENARI_MASK));
    v += (int)(pa >> SETTEBELLO & 1) - (int)(pb >> SETTEBELLO & 1);
    v += primiera_final(S, pa, pb);
    if (S->re_bello) v += (int)(pa >> RE_BELLO & 1) - (int)(pb >> RE_BELLO & 1);
    if (S->napola) v += napola_points(pa) - napola_points(pb);
    return v;
}

/*
 * The open primiera as it can still end (OPT_CANON), 40 bits: per suit a nibble
 * for each team (bits 8 st and 8 st + 4), and at bit 32 the difference of the
 * fixed values + 128.  A team's suit is fixed when no card left in play beats
 * its best (nibble 15): only the sum of fixed values then matters.  With the
 * complete-set rule, a team that can never complete makes the other's values
 * irrelevant but for which suits it still lacks (nibbles 14 and 13/0).
 */
static uint64_t canon_primiera(const Solver *S, const int a[4], const int b[4], const int r[4], int cana,
                               int canb) {
    uint64_t p = 0;
    if (!S->prim_sum && (!cana || !canb)) {
        /* the team that can complete wins if it does: which suits it lacks is all that matters */
        const int *v = cana ? a : b;
        int shift = cana ? 4 : 0; /* the other team's nibbles are 14 */
        for (int st = 0; st < 4; st++)
            p |= (uint64_t)(14 << shift | (v[st] ? 13 : 0) << (4 - shift)) << (8 * st);
        return p | (uint64_t)(cana ? 1 : 2) << 32;
    }
    int d = 128;
    for (int st = 0; st < 4; st++) {
        int na, nb;
        if (a[st] >= r[st]) { na = 15; d += a[st]; } else na = PVLEVEL[a[st]];
        if (b[st] >= r[st]) { nb = 15; d -= b[st]; } else nb = PVLEVEL[b[st]];
        p |= (uint64_t)(na | nb << 4) << (8 * st);
    }
    return p | (uint64_t)d << 32;
}

/*
 * What the piles already decide.  Returns the points that no future play can
 * change; *summary gets what of team A's pile can still change the score (the
 * rest of the key is where each card still in play is); *freecards gets the
 * cards still in play whose suit can no longer matter (interchangeable with
 * another card of their rank that is also free); *undecided the number of
 * category points still open (a bound on how far the value can still move,
 * besides scope and napola).
 */
static int decided(const Solver *S, uint64_t *summary, uint64_t *freecards, int *undecided,
                   int *cat_hi, int *cat_lo) {
    uint64_t pa = S->pile[0], pb = S->pile[1];
    uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
    int off = 0, open = 0, chi = 0, clo = 0;
    uint64_t sm = 0;
    int ca = popc(pa), cb = popc(pb), nrem = popc(rem);
    if (ca >= 21) off++;
    else if (cb >= 21) off--;
    else {
        sm |= (uint64_t)(ca + 1); open++;
        chi += ca + nrem > 20; clo -= cb + nrem > 20;
    }
    int da = popc(pa & DENARI_MASK), db = popc(pb & DENARI_MASK), drem = popc(rem & DENARI_MASK);
    int den_done = 1;
    if (da >= 6) off++;
    else if (db >= 6) off--;
    else if (da == 5 && db == 5) ;
    else {
        sm |= (uint64_t)(da + 1) << 6; open++; den_done = 0;
        chi += da + drem > 5; clo -= db + drem > 5;
    }
    if (pa >> SETTEBELLO & 1) off++;
    else if (pb >> SETTEBELLO & 1) off--;
    else { open++; chi++; clo--; }
    if (S->re_bello) {
        if (pa >> RE_BELLO & 1) off++;
        else if (pb >> RE_BELLO & 1) off--;
        else { open++; chi++; clo--; }
    }
    if (S->napola) sm |= (uint64_t)suit10(pa, 0) << 10;
    /* primiera */
    int a[4], b[4], r[4];
    int mina = 0, maxa = 0, minb = 0, maxb = 0, compa = 1, compb = 1, cana = 1, canb = 1;
    best_pv4(pa, a);
    best_pv4(pb, b);
    best_pv4(rem, r);
    for (int st = 0; st < 4; st++) {
        mina += a[st]; minb += b[st];
        maxa += a[st] > r[st] ? a[st] : r[st];
        maxb += b[st] > r[st] ? b[st] : r[st];
        if (!a[st]) { compa = 0; if (!r[st]) cana = 0; }
        if (!b[st]) { compb = 0; if (!r[st]) canb = 0; }
    }
    int pres = 2; /* 2 = open, else the decided point */
    int fixed = (mina == maxa && minb == maxb);
    if (S->prim_sum) {
        if (mina > maxb) pres = 1;
        else if (minb > maxa) pres = -1;
        else if (fixed) pres = more(mina, minb);
    } else {
        if (!cana && !canb) pres = 0;
        else if (compa && !canb) pres = 1;
        else if (compb && !cana) pres = -1;
        else if (compa && mina > maxb) pres = 1;
        else if (compb && minb > maxa) pres = -1;
        else if (compa && compb && fixed) pres = more(mina, minb);
    }
    uint64_t freec = 0;
    if (pres != 2) {
        off += pres;
        freec = rem;
    } else {
        open++;
        if (S->prim_sum) { chi += maxa > minb; clo -= maxb > mina; }
        else {
            chi += cana && (!compb || maxa > minb);
            clo -= canb && (!compa || maxb > mina);
        }
        if (S->opts & OPT_CANON) sm |= canon_primiera(S, a, b, r, cana, canb) << 20;
        for (int st = 0; st < 4; st++) {
            if (!(S->opts & OPT_CANON)) sm |= (uint64_t)(PVLEVEL[a[st]] | PVLEVEL[b[st]] << 4) << (20 + 8 * st);
            /* a card of this suit worth no more than both teams' best changes nothing */
            int lim = a[st] < b[st] ? a[st] : b[st];
            freec |= SCATTER[RANKS_UPTO[lim]] << st;
        }
        freec &= rem;
    }
    /* Denari keep their suit while denari, settebello, re bello or napola are open */
    freec &= ~(1ULL << SETTEBELLO);
    if (!den_done || S->napola) freec &= ~DENARI_MASK;
    if (S->re_bello) freec &= ~(1ULL << RE_BELLO);
    *summary = sm;
    *freecards = freec;
    *undecided = open;
    *cat_hi = chi;
    *cat_lo = clo;
    return off;
}

/* decided(), remembered per (piles, cards in play) */
static inline int decided_cached(Solver *S, uint64_t *summary, uint64_t *freecards, int *undecided,
                                 int *cat_hi, int *cat_lo) {
    uint64_t pa = S->pile[0], pb = S->pile[1];
    uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
    Decided *d = S->dcache + (mix64(pa * 0x9E3779B97F4A7C15ULL ^ pb) & (DCACHE - 1));
    if (!(d->used && d->pa == pa && d->pb == pb && d->rem == rem)) {
        int open, chi, clo;
        uint64_t sm, fc;
        int off = decided(S, &sm, &fc, &open, &chi, &clo);
        d->pa = pa; d->pb = pb; d->rem = rem; d->summary = sm; d->freec = fc;
        d->off = (int16_t)off; d->open = (int16_t)open; d->chi = (int16_t)chi; d->clo = (int16_t)clo;
        d->used = 1;
    }
    *summary = d->summary; *freecards = d->freec; *undecided = d->open;
    *cat_hi = d->chi; *cat_lo = d->clo;
    return d->off;
}

/* ------------------------------------------------------------------ moves */
static inline int sweep_scopa(const Solver *S, int value) {
    return !(S->apt && value == 1 && !S->asso_scopa);
}

static int expand(uint64_t table, uint64_t freet, uint64_t pat, int r, uint64_t acc, int card,
                  Move *out, int n, int equiv) {
    while (r < 10 && !((pat >> (4 * r)) & 15)) r++;
    if (r == 10) {
        if (n < MOVE_STACK / 2) { out[n].card = card; out[n].cap = acc; }
        return n + 1;
    }
    int k = (pat >> (4 * r)) & 15;
    int nib = (table >> (4 * r)) & 15, fnib = (freet >> (4 * r)) & 15;
    for (int i = 0; i < NSUBS[nib][k]; i++) {
        int sub = SUBS[nib][k][i];
        if (equiv) {
            int f = sub & fnib;
            if (f != LOWBITS[fnib][popc((uint64_t)f)]) continue;
        }
        n = expand(table, freet, pat, r + 1, acc | (uint64_t)sub << (4 * r), card, out, n, equiv);
    }
    return n;
}

/* the moves of card c on this table (tr: the table's ranks, tc: its rank
 * counts | 0x8888888888); capture choices between cards whose suit no longer
 * matters (freet, only when equiv) are made once */
static inline int card_moves(const Solver *S, int c, uint64_t table, unsigned tr, uint64_t tc,
                             uint64_t freet, int equiv, Move *out, int n) {
    int v = (c >> 2) + 1;
    int n0 = n;
    if (S->apt && v == 1) {
        if (S->asso_takes_asso && (table & 15)) {
            uint64_t aces = table & 15;
            uint64_t faces = aces & freet;
            int took_free = 0;
            while (aces) {
                int a = __builtin_ctzll(aces);
                aces &= aces - 1;
                if (equiv && (faces >> a & 1)) {
                    if (took_free) continue;
                    took_free = 1;
                }
                out[n].card = c; out[n].cap = 1ULL << a; n++;
            }
        } else if (table) {
            out[n].card = c; out[n].cap = table; n++;
        }
    } else if (S->strict && !S->quindici && (table >> (4 * (v - 1)) & 15)) {
        /* priority: a card of the same rank on the table must be taken alone */
        n = expand(table, freet, 1ULL << (4 * (v - 1)), v - 1, 0, c, out, n, equiv);
    } else {
        const uint64_t *pp = S->pat[v];
        int single_found = 0;
        for (int w = 0; w < 2; w++)
        for (uint64_t bits = S->fit[v][tr][w]; bits; bits &= bits - 1) {
            uint64_t p = pp[64 * w + __builtin_ctzll(bits)];
            if (((tc - p) & 0x8888888888ULL) != 0x8888888888ULL) continue;
            int single = (p & (p - 1)) == 0 && (__builtin_ctzll(p) & 3) == 0; /* one card */
            if (S->strict) {
                if (single_found && !single) continue;
                if (single && !single_found) { single_found = 1; n = n0; }
            }
            n = expand(table, freet, p, 0, 0, c, out, n, equiv);
            if (n >= MOVE_STACK / 2) return -1;
        }
    }
    if (n == n0) { out[n].card = c; out[n].cap = 0; n++; }
    return n;
}

static inline unsigned table_ranks(uint64_t table) {
    unsigned tr = 0; /* bit r - 1 */
    for (uint64_t m = table; m; m &= m - 1) tr |= 1u << (__builtin_ctzll(m) >> 2);
    return tr;
}

/* legal moves of the seat to move (equivalent ones dropped when freec != 0) */
static int gen_moves(const Solver *S, Move *out, uint64_t freec) {
    uint64_t hand = S->hand[S->to_move], table = S->table;
    uint64_t tc = rank_counts(table) | 0x8888888888ULL;
    int equiv = freec != 0;
    int n = 0;
    unsigned tr = table_ranks(table);
    uint64_t seen_free = 0; /* ranks (as nibble masks) whose free card was played */
    while (hand) {
        int c = __builtin_ctzll(hand);
        hand &= hand - 1;
        if (equiv && (freec >> c & 1)) {
            uint64_t nibm = 15ULL << (c & ~3);
            if (seen_free & nibm) continue;
            seen_free |= nibm;
        }
        n = card_moves(S, c, table, tr, tc, freec & table, equiv, out, n);
        if (n < 0 || n >= MOVE_STACK / 2) return -1;
    }
    return n;
}

/* --------------------------------------------------------------- make/unmake */
typedef struct {
    uint64_t hand, table, pa, pb, z1, z2;
    int s0, s1, last;
} Undo;

/*
 * What one play does to the table, the piles, the scope and the last capturer:
 * the rules of a play, written once for make() and last_round().
 */
static inline void apply_play(const Solver *S, int card, uint64_t cap, int team, int last_play,
                              uint64_t *table, uint64_t pile[2], int scope[2], int *last) {
    uint64_t bit = 1ULL << card;
    if (cap) {
        *table &= ~cap;
        pile[team] |= cap | bit;
        *last = team;
        /* only the Ace's whole-table sweep may be exempt; an Ace taking a lone Ace is a match */
        if (!*table && !last_play && (sweep_scopa(S, (card >> 2) + 1) || (S->asso_takes_asso && (cap & 15))))
            scope[team]++;
    } else {
        *table |= bit;
    }
    if (last_play && *table && *last >= 0) { /* the leftovers go to the last capturer */
        pile[*last] |= *table;
        *table = 0;
    }
}

static inline void make(Solver *S, int card, uint64_t cap, Undo *u) {
    int seat = S->to_move;
    u->hand = S->hand[seat]; u->table = S->table; u->pa = S->pile[0]; u->pb = S->pile[1];
    u->z1 = S->z1; u->z2 = S->z2; u->s0 = S->scope[0]; u->s1 = S->scope[1]; u->last = S->last;
    S->hand[seat] &= ~(1ULL << card);
    S->z1 ^= Z1[card][seat]; S->z2 ^= Z2[card][seat];
    /* the table's hash: the captured cards leave it, a laid card joins it */
    for (uint64_t m = cap; m; m &= m - 1) {
        int x = __builtin_ctzll(m);
        S->z1 ^= Z1[x][4]; S->z2 ^= Z2[x][4];
    }
    if (!cap) { S->z1 ^= Z1[card][4]; S->z2 ^= Z2[card][4]; }
    S->cards_left--;
    apply_play(S, card, cap, seat & 1, S->cards_left == 0, &S->table, S->pile, S->scope, &S->last);
    S->to_move = (seat + 1) & 3;
}

static inline void unmake(Solver *S, const Undo *u) {
    S->to_move = (S->to_move + 3) & 3;
    S->hand[S->to_move] = u->hand; S->table = u->table; S->pile[0] = u->pa; S->pile[1] = u->pb;
    S->z1 = u->z1; S->z2 = u->z2; S->scope[0] = u->s0; S->scope[1] = u->s1; S->last = u->last;
    S->cards_left++;
}

/* the sum of the values of the table's cards */
static inline int table_sum(uint64_t table) {
    int sum = 0;
    for (; table; table &= table - 1) sum += (__builtin_ctzll(table) >> 2) + 1;
    return sum;
}

/* whether the seat could sweep this table (approximate: for move ordering only) */
static inline int sweepable(const Solver *S, uint64_t table, int seat) {
    if (!table) return 0;
    uint64_t hand = S->hand[seat];
    if (S->apt && (hand & 15)) return 1;
    int sum = table_sum(table);
    int need = S->quindici ? 15 - sum : sum;
    return need >= 1 && need <= 10 && (hand >> (4 * (need - 1)) & 15);
}

/* could the seat sweep this table now (a superset: used for sure bounds) */
static inline int can_sweep_now(const Solver *S, int seat) {
    uint64_t table = S->table, hand = S->hand[seat];
    if (!table || !hand) return 0;
    if (S->apt && (hand & 15) && (S->asso_scopa || S->asso_takes_asso)) return 1;
    int sum = table_sum(table);
    if (sum >= 1 && sum <= 10 && (hand >> (4 * (sum - 1)) & 15)) return 1;
    if (S->quindici && sum < 15 && 15 - sum <= 10 && (hand >> (4 * (14 - sum)) & 15)) return 1;
    return 0;
}

/* an upper bound on how many disjoint (card laid by seat b on an empty table,
 * card of seat a that sweeps it) pairs exist */
static inline int sweep_pairs(const Solver *S, int b, int a) {
    uint64_t cb = rank_counts(S->hand[b]), ca = rank_counts(S->hand[a]);
    int m = 0;
    for (int r = 0; r < 10; r++) {
        int x = (int)(cb >> (4 * r) & 15), y = (int)(ca >> (4 * r) & 15);
        m += x < y ? x : y;
        if (S->quindici && r >= 4) { /* rank r+1 swept by rank 14-r */
            int z = (int)(ca >> (4 * (13 - r)) & 15);
            m += x < z ? x : z;
        }
    }
    if (S->apt && (S->asso_scopa || S->asso_takes_asso)) m += popc(S->hand[a] & 15);
    int nb = popc(S->hand[b]), na = popc(S->hand[a]);
    if (m > nb) m = nb;
    if (m > na) m = na;
    return m;
}

/*
 * Whether no scopa can be made any more (OPT_NOSCOPA): a card on the table
 * outranks every card in hand.  A capture takes cards summing to the played
 * card's value, so that card stays on the table for the rest of the deal (the
 * hands only shrink) and the table is never swept.  Not with quindici (sums to
 * 15 take high cards with low ones) nor with an Ace in hand that takes the
 * whole table.
 */
static inline int no_scopa_left(const Solver *S) {
    uint64_t hands = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    if (!S->table || !hands || S->quindici || (S->apt && (hands & 15))) return 0;
    return (63 - __builtin_clzll(S->table)) >> 2 > (63 - __builtin_clzll(hands)) >> 2;
}

/*
 * An upper bound on the scope team t can still make.  After a scopa the table
 * is empty, so the next (other team's) seat lays one card; the team's next
 * play sweeps again only by taking that lone card.  Split the team's scoring
 * plays (k: its plays left but the deal's last) into runs of consecutive
 * sweeps: runs are separated by a non-sweep of the team, and each step inside a
 * run uses a disjoint (laid, sweeping) card pair, at most M of them.  So
 * sweeps <= R + M and R - 1 <= k - sweeps (R <= k - sweeps when the team's
 * first play cannot sweep): sweeps <= (k + 1 + M) / 2.
 */
static int scope_max(const Solver *S, int t) {
    if ((S->opts & OPT_NOSCOPA) && no_scopa_left(S)) return 0;
    int k = popc(S->hand[t] | S->hand[t + 2]);
    int lastseat = (S->to_move + S->cards_left - 1) & 3;
    if ((lastseat & 1) == t) k--;
    if (k <= 0) return 0;
    int m = sweep_pairs(S, t + 1, t + 2) + sweep_pairs(S, (t + 3) & 3, t);
    int first = 1;
    if ((S->to_move & 1) == t && !can_sweep_now(S, S->to_move)) first = 0;
    int b = (k + first + m) / 2;
    return b < k ? b : k;
}

/* ordering score of a move (higher first) */
static int order_score(const Solver *S, const Move *m, int hist) {
    int card = m->card;
    uint64_t cap = m->cap;
    int next = (S->to_move + 1) & 3;
    int s;
    if (cap) {
        uint64_t taken = cap | 1ULL << card;
        s = 1000 + 40 * popc(taken) + 30 * popc(taken & DENARI_MASK);
        if (taken >> SETTEBELLO & 1) s += 400;
        uint64_t left = S->table & ~cap;
        if (!left) {
            if (S->cards_left > 1) s += 3000;
        } else if (sweepable(S, left, next)) s -= 1500;
    } else {
        s = -PV[(card >> 2) + 1] - ((DENARI_MASK >> card & 1) ? 30 : 0);
        if (card == SETTEBELLO) s -= 400;
        if (sweepable(S, S->table | 1ULL << card, next)) s -= 1500;
        else if (S->hand[next] >> (card & ~3) & 15) s -= 200; /* the next opponent takes it */
        else if (S->hand[(next + 1) & 3] >> (card & ~3) & 15) s += 100; /* the partner may take it */
    }
    return s + hist;
}

/*
 * The other ordering (OPT_ORDER2), as the independent solver of issue 15 orders:
 * captures first (a scopa, then the settebello, then by Denari, then by cards),
 * then lay-downs that leave a table summing over 10 (no single card sweeps it),
 * and any move after which the next seat could sweep comes last.
 */
static int order_score2(const Solver *S, const Move *m, int hist) {
    int card = m->card;
    uint64_t cap = m->cap;
    int next = (S->to_move + 1) & 3;
    int s;
    uint64_t left;
    if (cap) {
        uint64_t taken = cap | 1ULL << card;
        left = S->table & ~cap;
        s = 100000 + (!left && S->cards_left > 1 ? 50000 : 0) + (int)(taken >> SETTEBELLO & 1) * 10000 +
            1000 * popc(taken & DENARI_MASK) + 100 * popc(taken);
    } else {
        left = S->table | 1ULL << card;
        s = (table_sum(left) > 10 ? 1000 : 0) - PV[(card >> 2) + 1] - ((DENARI_MASK >> card & 1) ? 30 : 0);
        if (card == SETTEBELLO) s -= 400;
    }
    if (left && sweepable(S, left, next)) s -= 200000;
    return s + hist;
}

#ifndef SMALL_CARDS
#define SMALL_CARDS 8 /* cards left for the plain search (measured: 6, 7, 9, 10 slower) */
#endif

/* ------------------------------------------------------------------ table */
/*
 * The bucket of a key at a node with `left` cards in hand.  The nodes of the
 * last SMALL_CARDS cards (OPT_DEEPTT) use a small table of their own that
 * stays in the processor's cache: their subtrees are small, so a probe that
 * waits for main memory costs about as much as the subtree, and their
 * transpositions are near one another in the search.
 */
static inline Entry *bucket_at(const Solver *S, uint64_t key, int left) {
    if (S->tt2 && left <= SMALL_CARDS) return S->tt2 + (key & S->tt2_mask & ~1ULL);
    return S->tt + (key & S->tt_mask & ~1ULL);
}

static inline Entry *probe(Solver *S, uint64_t key, uint64_t check) {
    Entry *b = bucket_at(S, key, S->cards_left);
    if (b[0].key == key && b[0].check == check && key) return b;
    if (b[1].key == key && b[1].check == check && key) return b + 1;
    return NULL;
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
    if (S->re_bello) ORDER_BY((int)(pa >> RE_BELLO & 1) - (int)(pe >> RE_BELLO & 1));
    if (S->napola) {
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

/* a slot for a new entry: slot 0 keeps the bigger subtree, slot 1 takes the rest */
static inline Entry *slot_for(Solver *S, uint64_t key, int w) {
    Entry *b = bucket_at(S, key, S->cards_left), *e;
    int count = b < S->tt2 || !S->tt2 || b >= S->tt2 + S->tt2_mask + 1; /* the main table grows */
    if (!b[0].key || b[0].work <= w) {
        if (b[0].key) {
            if (!b[1].key) S->tt_entries += count;
            b[1] = b[0];
        } else S->tt_entries += count;
        e = b;
    } else {
        if (!b[1].key) S->tt_entries += count;
        e = b + 1;
    }
    e->key = key;
    e->work = (uint8_t)w;
    return e;
}

/* zeroed memory for the table, aligned to a cache line (huge pages were
 * measured: the kernel's zeroing of them cost more than the TLB misses saved) */
static Entry *table_alloc(size_t bytes, void **raw) {
    *raw = calloc(bytes + 64, 1);
    if (!*raw) return NULL;
    return (Entry *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63);
}

/* no Python calls here: it runs inside the search, without the GIL */
static int set_tt(Solver *S, size_t n) {
    S->tt = table_alloc(n * sizeof(Entry), &S->tt_raw);
    if (!S->tt) return -1;
    S->tt_mask = n - 1;
    S->tt_bytes = n * sizeof(Entry);
    S->tt_entries = 0;
    /* grow when 3/4 full, unless the next size would pass the memory bound */
    S->tt_grow_at = (2 * S->tt_bytes + S->tt2_bytes <= S->tt_limit_bytes) ? n / 4 * 3 : UINT64_MAX;
    return 0;
}

static int grow_tt(Solver *S) {
    Entry *old = S->tt;
    void *old_raw = S->tt_raw;
    size_t n = (size_t)S->tt_mask + 1;
    if (set_tt(S, 2 * n) < 0) {
        S->tt = old; S->tt_raw = old_raw; S->tt_mask = n - 1; S->tt_bytes = n * sizeof(Entry); S->tt_grow_at = UINT64_MAX;
        return 0; /* keep searching with the table we have */
    }
    for (size_t i = 0; i < n; i++) {
        if (!old[i].key) continue;
        Entry *b = S->tt + (old[i].key & S->tt_mask & ~1ULL);
        Entry *e = !b[0].key ? b : !b[1].key ? b + 1 : (b[0].work < b[1].work ? b : b + 1);
        if (!e->key) S->tt_entries++;
        *e = old[i];
    }
    free(old_raw);
    return 0;
}

/* ------------------------------------------------------------------ search */
static int check_interrupt(Solver *S) {
    if (S->stop_requested) {
        S->aborted = 1;
        return 1;
    }
    if (S->has_deadline) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > S->end.tv_sec || (now.tv_sec == S->end.tv_sec && now.tv_nsec >= S->end.tv_nsec)) {
            S->aborted = 1;
            return 1;
        }
    }
    /* the search runs without the GIL (other threads, e.g. a progress display,
     * keep running); take it back to let Python run its signal handlers */
    PyEval_RestoreThread(S->tstate);
    int sig = PyErr_CheckSignals();
    S->tstate = PyEval_SaveThread();
    if (sig < 0) {
        S->aborted = 1;
        S->py_error = 1;
        return 1;
    }
    return 0;
}

static inline int ilog2(uint64_t x) { return x ? 63 - __builtin_clzll(x) : 0; }

#ifndef DEEPTT_MIN
#define DEEPTT_MIN 5 /* with OPT_DEEPTT: the fewest cards left searched with the table */
#endif
#ifndef SMALLBOUNDS_MIN
#define SMALLBOUNDS_MIN 5
#endif
/*
 * The last round: every seat still to play holds one card, so the play is
 * forced but for the choice between capture options.  Plays it out on local
 * copies of the state (no make/unmake, no move ordering, no bounds).
 */
static int last_round(Solver *S, Move *ms, int seat, int left, uint64_t table, const uint64_t pile[2],
                      const int scope[2], int last, int alpha, int beta, int cat_lo, int cat_hi, uint64_t freec) {
    int sc = scope[0] - scope[1];
    if (!left) return score_piles(S, pile[0], pile[1]) + sc;
    if (left > 1) {
        /* the categories end in [cat_lo, cat_hi]; each play but the last makes at most one scopa */
        int plays_a = (left - 1 + !(seat & 1)) / 2, plays_b = left - 1 - plays_a;
        int hi = cat_hi + sc + plays_a, lo = cat_lo + sc - plays_b;
        if (hi <= alpha) { S->bound_cuts++; return hi; }
        if (lo >= beta) { S->bound_cuts++; return lo; }
    }
    int c = __builtin_ctzll(S->hand[seat]);
    int n = card_moves(S, c, table, table_ranks(table), rank_counts(table) | 0x8888888888ULL, freec & table,
                       freec != 0, ms, 0);
    if (n < 0 || (ms - S->mstack) + n + 4096 > MOVE_STACK) { /* cannot happen: checked anyway */
        S->py_error = 2;
        S->aborted = 1;
        return 0;
    }
    int maximise = (seat & 1) == 0;
    int best = maximise ? -S->inf : S->inf;
    for (int i = 0; i < n; i++) {
        uint64_t t = table, p[2] = {pile[0], pile[1]};
        int sco[2] = {scope[0], scope[1]}, l = last;
        S->nodes++;
        S->by_left[left - 1]++;
        apply_play(S, c, ms[i].cap, seat & 1, left == 1, &t, p, sco, &l);
        int v = last_round(S, ms + n, (seat + 1) & 3, left - 1, t, p, sco, l, alpha, beta, cat_lo, cat_hi, freec);
        if (maximise) {
            if (v > best) { best = v; if (v > alpha) alpha = v; }
        } else {
            if (v < best) { best = v; if (v < beta) beta = v; }
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* whether the rest of the deal is one round: the seats still to play hold one card each */
static inline int in_last_round(const Solver *S) {
    int left = S->cards_left;
    if (left > 4) return 0;
    for (int i = 0; i < 4; i++)
        if (popc(S->hand[(S->to_move + i) & 3]) != (i < left)) return 0;
    return 1;
}

/* the last plays: no table, no ordering, nothing but the rules */
static int ab_small(Solver *S, int sp, int alpha, int beta, int cat_lo, int cat_hi, uint64_t freec) {
    if (S->cards_left == 0)
        return score_piles(S, S->pile[0], S->pile[1]) + S->scope[0] - S->scope[1];
    {
        /* the categories end in [cat_lo, cat_hi] (what was still open where the
         * plain search began); each play but the last makes at most one scopa */
        int sc = S->scope[0] - S->scope[1];
        int na = popc(S->hand[0] | S->hand[2]), nb = popc(S->hand[1] | S->hand[3]);
        if ((S->to_move + S->cards_left - 1) & 1) nb--; else na--;
        if ((S->opts & OPT_NOSCOPA) && no_scopa_left(S)) na = nb = 0;
        int hi = cat_hi + sc + na, lo = cat_lo + sc - nb;
        if (hi <= alpha) { S->bound_cuts++; return hi; }
        if (lo >= beta) { S->bound_cuts++; return lo; }
    }
    if ((S->opts & OPT_LAST) && S->cards_left <= 4 && in_last_round(S))
        return last_round(S, S->mstack + sp, S->to_move, S->cards_left, S->table, S->pile, S->scope, S->last,
                          alpha, beta, cat_lo, cat_hi, freec);
    if ((S->opts & OPT_SMALLBOUNDS) && S->cards_left >= SMALLBOUNDS_MIN) {
        /* every category is monotone in the cards a team takes: the best A can
         * reach is all cards still in play going to A, plus its possible scope */
        uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
        int sc = S->scope[0] - S->scope[1];
        /* scope only add to these: look at them when the categories alone would cut */
        int hi = score_piles(S, S->pile[0] | rem, S->pile[1]) + sc;
        if (hi <= alpha && (hi += scope_max(S, 0)) <= alpha) { S->bound_cuts++; return hi; }
        int lo = score_piles(S, S->pile[0], S->pile[1] | rem) + sc;
        if (lo >= beta && (lo -= scope_max(S, 1)) >= beta) { S->bound_cuts++; return lo; }
    }
    Move *ms = S->mstack + sp;
    int n = gen_moves(S, ms, freec);
    if (n < 0 || sp + n + 4096 > MOVE_STACK) { /* cannot happen with 8 cards in hand: checked anyway */
        S->py_error = 2;
        S->aborted = 1;
        return 0;
    }
    if (S->opts & OPT_ORDER) {
        /* sweeps first, then other captures, then lay-downs */
        int k = 0;
        for (int i = 0; i < n; i++)
            if (ms[i].cap == S->table && ms[i].cap) { Move t = ms[k]; ms[k] = ms[i]; ms[i] = t; k++; }
        for (int i = k; i < n; i++)
            if (ms[i].cap) { Move t = ms[k]; ms[k] = ms[i]; ms[i] = t; k++; }
    }
    int maximise = (S->to_move & 1) == 0;
    int best = maximise ? -S->inf : S->inf;
    for (int i = 0; i < n; i++) {
        Undo u;
        S->nodes++;
        S->by_left[S->cards_left - 1]++;
        make(S, ms[i].card, ms[i].cap, &u);
        int v = ab_small(S, sp + n, alpha, beta, cat_lo, cat_hi, freec);
        unmake(S, &u);
        if (maximise) {
            if (v > best) { best = v; if (v > alpha) alpha = v; }
        } else {
            if (v < best) { best = v; if (v < beta) beta = v; }
        }
        if (alpha >= beta) break;
    }
    return best;
}

static int ab(Solver *S, int sp, int alpha, int beta) {
    S->nodes++;
    S->by_left[S->cards_left]++;
    if (S->nodes >= S->next_check) {
        S->next_check = S->nodes + 100000;
        if (check_interrupt(S)) return 0;
    }
    if (S->aborted) return 0;
    if (S->cards_left == 0)
        return score_piles(S, S->pile[0], S->pile[1]) + S->scope[0] - S->scope[1];

    if (S->cards_left <= S->small || ((S->opts & OPT_LAST) && S->cards_left <= 4)) {
        int cat_lo = -S->inf, cat_hi = S->inf;
        uint64_t fc = 0;
        if (S->opts & (OPT_RANGE | OPT_SMALLEQUIV)) {
            /* what the categories can still end at, for cheap bounds in the plain
             * search, and the cards whose suit no longer matters (both only
             * narrow as cards are taken, so they hold in the whole subtree) */
            uint64_t sm;
            int open, chi, clo, dec = decided_cached(S, &sm, &fc, &open, &chi, &clo);
            int nap = S->napola ? 10 : 0;
            if (S->opts & OPT_RANGE) { cat_lo = dec + clo - nap; cat_hi = dec + chi + nap; }
            if (!(S->opts & OPT_SMALLEQUIV)) fc = 0;
        }
        return ab_small(S, sp, alpha, beta, cat_lo, cat_hi, fc);
    }
    /* the slot depends on the card locations only: fetch it while the pile summary is computed */
    uint64_t key = 0;
    if (S->use_tt) {
        if (S->tt_entries > S->tt_grow_at && grow_tt(S) < 0) return 0;
        key = S->z1 ^ ZMOVER[S->to_move][S->last + 1];
        __builtin_prefetch(bucket_at(S, key, S->cards_left));
    }
    int opts = S->opts;
    int off = S->scope[0] - S->scope[1];
    uint64_t summary = 0, freec = 0;
    int open = 0;
    if (opts & (OPT_SUMMARY | OPT_EQUIV | OPT_BOUNDS)) {
        int chi = 0, clo = 0;
        int dec = decided_cached(S, &summary, &freec, &open, &chi, &clo);
        if (opts & OPT_SUMMARY) off += dec;
        else summary = S->pile[0];
        if (opts & OPT_BOUNDS) {
            /* sure bounds: open categories are worth one point each; each play
             * except the last can at most make one scopa; napola moves up to 10 */
            int base = S->scope[0] - S->scope[1] + dec;
            int hi = base + open, lo = base - open;
            int na = popc(S->hand[0] | S->hand[2]), nb = popc(S->hand[1] | S->hand[3]);
            /* the very last play of the deal never makes a scopa */
            int lastseat = (S->to_move + S->cards_left - 1) & 3;
            if (lastseat & 1) nb--; else na--;
            hi += na; lo -= nb;
            if (opts & OPT_TIGHT) {
                /* scope only widen these: count them when the categories alone would cut */
                hi = base + chi;
                lo = base + clo;
                if (hi <= alpha) hi += scope_max(S, 0); else hi = S->inf - 1;
                if (lo >= beta) lo -= scope_max(S, 1); else lo = -S->inf + 1;
            }
            if (S->napola) { hi += 10; lo -= 10; }
            if (hi <= alpha) { S->bound_cuts++; return hi; }
            if (lo >= beta) { S->bound_cuts++; return lo; }
        }
        if (!(opts & OPT_EQUIV)) freec = 0;
    } else {
        summary = S->pile[0];
    }

    uint64_t ttmove = NO_MOVE, check = 0, loc = 0;
    int have = 0, tlo = -TT_NONE, thi = TT_NONE;
    int sdiff = S->scope[0] - S->scope[1];
    if (S->use_tt) {
        loc = S->z2 ^ ZMOVER2[S->to_move][S->last + 1];
        check = loc ^ mix64(summary ^ 0xA5A5A5A5DEADBEEFULL);
        if (sp == 0) { S->root_key = key; S->root_check = check; S->root_keyed = 1; }
        Entry *e = probe(S, key, check);
        int lo = -S->inf, hi = S->inf;
        if (e) {
            have = 1;
            tlo = e->lo; thi = e->hi;
            if (tlo > -TT_NONE) lo = tlo + off;
            if (thi < TT_NONE) hi = thi + off;
            ttmove = entry_move(e);
        }
        if (opts & OPT_DOMINANCE) {
            /* the other piles met with these cards in play: a bound for a pile
             * no better (worse) for A is a lower (upper) bound here too */
            Entry *b = bucket_at(S, key, S->cards_left);
            for (int j = 0; j < 2; j++) {
                Entry *x = b + j;
                if (x == e || x->key != key || !key || (x->move >> 54) != (loc >> 54)) continue;
                int order = pile_order(S, S->pile[0], entry_pile(x));
                if ((order & 1) && x->lo > -TT_NONE && x->lo + x->dec + sdiff > lo) lo = x->lo + x->dec + sdiff;
                if ((order & 2) && x->hi < TT_NONE && x->hi + x->dec + sdiff < hi) hi = x->hi + x->dec + sdiff;
                if (ttmove == NO_MOVE) ttmove = entry_move(x);
            }
        }
        if (e || lo > -S->inf || hi < S->inf) {
            if (lo >= beta || lo == hi) { S->tt_hits++; return lo; }
            if (hi <= alpha) { S->tt_hits++; return hi; }
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
    }
    int a0 = alpha, b0 = beta;
    int maximise = (S->to_move & 1) == 0;
    Move *ms = S->mstack + sp;
    int n = gen_moves(S, ms, freec);
    if (n < 0 || sp + n + 4096 > MOVE_STACK) {
        if (!S->aborted) {
            S->py_error = 2; /* raised once the GIL is back (Solver_search) */
            S->aborted = 1;
        }
        return 0;
    }
    int team = S->to_move & 1;
    if (S->use_tt && S->cards_left - 1 > S->small && S->cards_left - 1 > ((opts & OPT_LAST) ? 4 : 0)) {
        /* the children's slots, fetched while the moves are ordered (most nodes search one child) */
        uint64_t base = S->z1;
        int seat = S->to_move, next = (seat + 1) & 3;
        for (int i = 0; i < n && i < 8; i++) {
            int c = ms[i].card;
            uint64_t k = base ^ Z1[c][seat];
            if (ms[i].cap) {
                for (uint64_t m = ms[i].cap; m; m &= m - 1) k ^= Z1[__builtin_ctzll(m)][4];
                k ^= ZMOVER[next][team + 1];
            } else k ^= Z1[c][4] ^ ZMOVER[next][S->last + 1];
            __builtin_prefetch(bucket_at(S, k, S->cards_left - 1));
        }
    }
    if (opts & OPT_ORDER) {
        for (int i = 0; i < n; i++) {
            int hist = (opts & OPT_HISTORY) ? S->history[ms[i].card][team] : 0;
            if ((opts & OPT_KILLER) && ms[i].card == S->killer[S->cards_left]) hist += 2500;
            ms[i].score = (opts & OPT_ORDER2) ? order_score2(S, ms + i, hist) : order_score(S, ms + i, hist);
            if (ttmove != NO_MOVE && (int)(ttmove & 63) == ms[i].card && (ttmove >> 6) == ms[i].cap)
                ms[i].score = 1 << 30;
        }
    }
    uint64_t nodes0 = S->nodes;
    int best = maximise ? -S->inf : S->inf;
    uint64_t bestmove = NO_MOVE;
    for (int i = 0; i < n; i++) {
        if (opts & OPT_ORDER) {
            int bi = i;
            for (int j = i + 1; j < n; j++)
                if (ms[j].score > ms[bi].score) bi = j;
            if (bi != i) { Move t = ms[i]; ms[i] = ms[bi]; ms[bi] = t; }
        }
        Undo u;
        make(S, ms[i].card, ms[i].cap, &u);
        int v = ab(S, sp + n, alpha, beta);
        unmake(S, &u);
        if (S->aborted) return 0;
        if (maximise) {
            if (v > best) {
                best = v; bestmove = (uint64_t)ms[i].card | ms[i].cap << 6;
                if (v > alpha) alpha = v;
            }
        } else {
            if (v < best) {
                best = v; bestmove = (uint64_t)ms[i].card | ms[i].cap << 6;
                if (v < beta) beta = v;
            }
        }
        if (alpha >= beta) {
            if ((opts & OPT_HISTORY) && !ms[i].cap) S->history[ms[i].card][team] += 1;
            S->cuts++;
            S->killer[S->cards_left] = ms[i].card;
            if (i == 0) S->cut_first++;
            break;
        }
    }
    if (alpha < beta) { /* no cut-off: every move was searched */
        S->all_nodes[S->cards_left]++;
        S->all_moves[S->cards_left] += (uint64_t)n;
        S->all_hand[S->cards_left] += (uint64_t)popc(S->hand[S->to_move]);
    }
    if (S->use_tt) {
        int rel = best - off;
        if (rel > 100) rel = 100;
        if (rel < -100) rel = -100; /* cannot happen: deal values are small */
        int lo = -TT_NONE, hi = TT_NONE;
        Entry *e = probe(S, key, check); /* the subtree may have moved it */
        if (e) { lo = e->lo; hi = e->hi; }
        else if (have) { lo = tlo; hi = thi; }
        if (best <= a0) { if (rel < hi) hi = rel; }
        else if (best >= b0) { if (rel > lo) lo = rel; }
        else lo = hi = rel;
        int w = ilog2(S->nodes - nodes0) + 1;
        if (!e) e = slot_for(S, key, w);
        else if (w > e->work) e->work = (uint8_t)w;
        e->check = check;
        e->lo = (int8_t)lo; e->hi = (int8_t)hi;
        e->dec = (int8_t)(off - sdiff);
        entry_set(e, bestmove, S->pile[0], loc);
        S->tt_stores++;
    }
    return best;
}

/* ------------------------------------------------------------------ Python type */
/* the search runs without the GIL: refuse a Solver that is searching (another thread, a signal handler) */
static int refuse_if_busy(Solver *S) {
    if (!S->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "compiled core: this Solver is busy with a search (in another thread or a signal handler)");
    return 1;
}

static void free_tables(Solver *S) {
    free(S->tt_raw); S->tt_raw = NULL; S->tt = NULL; S->tt_bytes = 0; S->tt_entries = 0;
    free(S->tt2_raw); S->tt2_raw = NULL; S->tt2 = NULL; S->tt2_bytes = 0; S->tt2_mask = 0;
}

#ifndef DEEP_TABLE_BYTES
#define DEEP_TABLE_BYTES (4u << 20)
#endif
static int alloc_tt(Solver *S) {
    if (S->tt) return 0;
    if ((S->opts & OPT_DEEPTT) && (S->opts & OPT_SMALL) && !S->tt2) {
        /* a quarter of the memory at most; the main table has the rest */
        size_t bytes = DEEP_TABLE_BYTES;
        while (bytes > S->tt_limit_bytes / 4 && bytes > 64 * sizeof(Entry)) bytes /= 2;
        S->tt2 = table_alloc(bytes, &S->tt2_raw);
        if (!S->tt2) { PyErr_NoMemory(); return -1; }
        S->tt2_bytes = bytes;
        S->tt2_mask = bytes / sizeof(Entry) - 1;
    }
    size_t n = 1 << 15;
    while (n * sizeof(Entry) > S->tt_limit_bytes - S->tt2_bytes && n > 64) n /= 2;
    if (set_tt(S, n) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

static int Solver_init(Solver *S, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"patterns", "strict", "asso_piglia_tutto", "asso_scopa", "asso_takes_asso",
                             "primiera_sum", "re_bello", "napola", "quindici", "memory_mb", "use_tt", "options", NULL};
    PyObject *patterns;
    int strict, apt, asso_scopa, ata, psum, reb, nap, q15, use_tt = 1, options = OPT_DEFAULT;
    double memory_mb = 256;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Opppppppp|dpi", kwlist, &patterns, &strict, &apt,
                                     &asso_scopa, &ata, &psum, &reb, &nap, &q15, &memory_mb, &use_tt, &options))
        return -1;
    if (refuse_if_busy(S)) return -1;
    PyObject *seq = PySequence_Fast(patterns, "patterns must be a sequence of 11 lists");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 11) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "patterns must have 11 entries (index 0 unused)");
        return -1;
    }
    for (int v = 0; v < 11; v++) {
        PyObject *lst = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, v), "patterns[v] must be a sequence");
        if (!lst) { Py_DECREF(seq); return -1; }
        Py_ssize_t np = PySequence_Fast_GET_SIZE(lst);
        if (np > 128) {
            Py_DECREF(lst); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "too many capture patterns for one value");
            return -1;
        }
        S->npat[v] = (int)np;
        for (Py_ssize_t i = 0; i < np; i++) {
            unsigned long long p = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(lst, i));
            if (PyErr_Occurred()) { Py_DECREF(lst); Py_DECREF(seq); return -1; }
            S->pat[v][i] = p;
        }
        memset(S->fit[v], 0, sizeof S->fit[v]);
        for (Py_ssize_t i = 0; i < np; i++) {
            unsigned pm = 0;
            for (int r = 0; r < 10; r++)
                if ((S->pat[v][i] >> (4 * r)) & 15) pm |= 1u << r;
            for (unsigned t = pm; t < 1024; t = (t + 1) | pm) S->fit[v][t][i >> 6] |= 1ULL << (i & 63);
        }
        Py_DECREF(lst);
    }
    Py_DECREF(seq);
    S->strict = strict; S->apt = apt; S->asso_scopa = asso_scopa; S->asso_takes_asso = ata;
    S->prim_sum = psum; S->re_bello = reb; S->napola = nap; S->quindici = q15;
    S->use_tt = use_tt; S->opts = options & OPT_ALL;
    S->small = !(options & OPT_SMALL) ? 0 : (options & OPT_DEEPTT) ? DEEPTT_MIN - 1 : SMALL_CARDS;
    if (memory_mb < 1) memory_mb = 1;
    S->tt_limit_bytes = (size_t)(memory_mb * 1048576.0);
    free_tables(S);
    if (!S->mstack) {
        S->mstack = (Move *)malloc(sizeof(Move) * MOVE_STACK);
        if (!S->mstack) { PyErr_NoMemory(); return -1; }
    }
    S->nodes = S->tt_hits = S->tt_stores = S->cuts = S->cut_first = S->bound_cuts = 0;
    memset(S->by_left, 0, sizeof S->by_left);
    memset(S->all_nodes, 0, sizeof S->all_nodes);
    memset(S->all_moves, 0, sizeof S->all_moves);
    memset(S->all_hand, 0, sizeof S->all_hand);
    memset(S->history, 0, sizeof S->history);
    memset(S->killer, -1, sizeof S->killer);
    memset(S->dcache, 0, sizeof S->dcache);
    return 0;
}

static void Solver_dealloc(Solver *S) {
    free_tables(S);
    free(S->mstack);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyObject *Solver_search(Solver *S, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"hand0", "hand1", "hand2", "hand3", "table", "pile_a", "pile_b", "scope_a", "scope_b",
                             "to_move", "last", "alpha", "beta", "limit", "seconds_left", NULL};
    unsigned long long h0, h1, h2, h3, table, pa, pb;
    int s0, s1, to_move, last, alpha, beta, limit;
    double remaining;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "KKKKKKKiiiiiiid", kwlist, &h0, &h1, &h2, &h3, &table, &pa, &pb,
                                     &s0, &s1, &to_move, &last, &alpha, &beta, &limit, &remaining))
        return NULL;
    if (refuse_if_busy(S)) return NULL;
    uint64_t all = h0 | h1 | h2 | h3 | table | pa | pb;
    if ((all & ~ALL40) || to_move < 0 || to_move > 3 || last < -1 || last > 1 || limit <= 0 ||
        limit > (1 << 24) || alpha < -limit || alpha >= beta || beta > limit) {
        PyErr_SetString(PyExc_ValueError, "compiled core: invalid position");
        return NULL;
    }
    S->hand[0] = h0; S->hand[1] = h1; S->hand[2] = h2; S->hand[3] = h3;
    S->table = table; S->pile[0] = pa; S->pile[1] = pb;
    S->scope[0] = s0; S->scope[1] = s1; S->to_move = to_move; S->last = last;
    S->inf = limit;
    S->cards_left = popc(h0) + popc(h1) + popc(h2) + popc(h3);
    S->z1 = S->z2 = 0;
    for (int seat = 0; seat < 4; seat++)
        for (uint64_t m = S->hand[seat]; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            S->z1 ^= Z1[c][seat]; S->z2 ^= Z2[c][seat];
        }
    for (uint64_t m = table; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        S->z1 ^= Z1[c][4]; S->z2 ^= Z2[c][4];
    }
    S->aborted = S->py_error = 0;
    S->root_keyed = 0;
    if (S->stop_requested) Py_RETURN_NONE;
    S->next_check = S->nodes + 100000;
    S->has_deadline = remaining >= 0;
    if (S->has_deadline) {
        if (remaining == 0) { Py_RETURN_NONE; }
        clock_gettime(CLOCK_MONOTONIC, &S->end);
        double secs = (double)S->end.tv_sec + S->end.tv_nsec * 1e-9 + remaining;
        S->end.tv_sec = (time_t)secs;
        S->end.tv_nsec = (long)((secs - (double)S->end.tv_sec) * 1e9);
    }
    if (S->use_tt && alloc_tt(S) < 0) return NULL;
    S->busy = 1;
    S->tstate = PyEval_SaveThread();
    int v = ab(S, 0, alpha, beta);
    PyEval_RestoreThread(S->tstate);
    S->busy = 0;
    if (S->py_error == 2)
        PyErr_SetString(PyExc_RuntimeError, "compiled core: too many legal moves in one position");
    if (S->py_error) return NULL;
    if (S->aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *Solver_stats(Solver *S, PyObject *noargs) {
    return Py_BuildValue("{s:s,s:K,s:K,s:K,s:K,s:K,s:i,s:K,s:K,s:K}", "engine", "c",
                         "nodes", (unsigned long long)S->nodes,
                         "tt_hits", (unsigned long long)S->tt_hits,
                         "tt_entries", (unsigned long long)S->tt_entries,
                         "tt_stores", (unsigned long long)S->tt_stores,
                         "tt_memory_bytes", (unsigned long long)(S->tt_bytes + S->tt2_bytes),
                         "options", S->opts, "cutoffs", (unsigned long long)S->cuts,
                         "first_move_cutoffs", (unsigned long long)S->cut_first,
                         "bound_cutoffs", (unsigned long long)S->bound_cuts);
}

static PyObject *Solver_profile(Solver *S, PyObject *noargs) {
    PyObject *out = PyList_New(41);
    for (int i = 0; i < 41 && out; i++) {
        PyObject *row = Py_BuildValue("{s:K,s:K,s:K,s:K}", "nodes", S->by_left[i],
                                      "all_nodes", S->all_nodes[i], "all_moves", S->all_moves[i],
                                      "all_hand", S->all_hand[i]);
        if (!row) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}

static PyObject *Solver_root_move(Solver *S, PyObject *noargs) {
    if (refuse_if_busy(S)) return NULL;
    /* the table's best move for the root of the last search, or None */
    if (!S->tt || !S->root_keyed) Py_RETURN_NONE;
    Entry *e = probe(S, S->root_key, S->root_check);
    if (!e || entry_move(e) == NO_MOVE) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(entry_move(e));
}

static PyObject *Solver_stop(Solver *S, PyObject *args) {
    /* callable while another thread searches (it only sets a flag): the search
     * notices at its next interrupt check (every 100,000 nodes) */
    int flag = 1;
    if (!PyArg_ParseTuple(args, "|p", &flag)) return NULL;
    S->stop_requested = flag;
    Py_RETURN_NONE;
}

static PyObject *Solver_clear(Solver *S, PyObject *noargs) {
    if (refuse_if_busy(S)) return NULL;
    free_tables(S);
    S->nodes = S->tt_hits = S->tt_stores = S->cuts = S->cut_first = S->bound_cuts = 0;
    memset(S->by_left, 0, sizeof S->by_left);
    memset(S->all_nodes, 0, sizeof S->all_nodes);
    memset(S->all_moves, 0, sizeof S->all_moves);
    memset(S->all_hand, 0, sizeof S->all_hand);
    memset(S->history, 0, sizeof S->history);
    memset(S->killer, -1, sizeof S->killer);
    Py_RETURN_NONE;
}

static PyObject *Solver_legal_moves(Solver *S, PyObject *args) {
    /* the legal moves as ints, without equivalence pruning (for tests) */
    unsigned long long h, table;
    if (!PyArg_ParseTuple(args, "KK", &h, &table)) return NULL;
    if (refuse_if_busy(S)) return NULL;
    uint64_t save_h = S->hand[0], save_t = S->table;
    int save_m = S->to_move;
    S->hand[0] = h; S->table = table; S->to_move = 0;
    Move *buf = (Move *)malloc(sizeof(Move) * (MOVE_STACK / 2 + 8));
    if (!buf) return PyErr_NoMemory();
    int n = gen_moves(S, buf, 0);
    S->hand[0] = save_h; S->table = save_t; S->to_move = save_m;
    if (n < 0) { free(buf); PyErr_SetString(PyExc_RuntimeError, "too many moves"); return NULL; }
    PyObject *out = PyList_New(n);
    for (int i = 0; i < n && out; i++)
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong((uint64_t)buf[i].card | buf[i].cap << 6));
    free(buf);
    return out;
}

static PyMethodDef Solver_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Solver_search, METH_VARARGS | METH_KEYWORDS,
     "search(hand0, hand1, hand2, hand3, table, pile_a, pile_b, scope_a, scope_b, to_move, last, alpha, beta, "
     "limit, seconds_left) -> int, or None when interrupted (cards as 40-bit masks; last: the last capturing "
     "team or -1; every value lies in (-limit, limit); seconds_left < 0: no limit)"},
    {"stats", (PyCFunction)Solver_stats, METH_NOARGS, "counters (cumulative)"},
    {"profile", (PyCFunction)Solver_profile, METH_NOARGS,
     "per number of cards left in the hands (list index): nodes, and for the table-searched nodes "
     "that had no cut-off, their count, moves searched and the mover's cards (cumulative)"},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "forget the table and counters"},
    {"stop", (PyCFunction)Solver_stop, METH_VARARGS,
     "stop(flag=True): searches (running or later) return None until stop(False); thread-safe"},
    {"root_move", (PyCFunction)Solver_root_move, METH_NOARGS,
     "the table's best move (card | captured << 6) for the root of the last search, or None"},
    {"legal_moves", (PyCFunction)Solver_legal_moves, METH_VARARGS,
     "legal_moves(hand, table) -> list of card | captured << 6"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "scopone.solver._core.Solver",
    .tp_basicsize = sizeof(Solver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Alpha-beta search of Scopone deals with a transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core", "Compiled search core of the Scopone solver.", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    init_tables();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&coremodule);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "OPT_ORDER", OPT_ORDER);
    PyModule_AddIntConstant(m, "OPT_EQUIV", OPT_EQUIV);
    PyModule_AddIntConstant(m, "OPT_BOUNDS", OPT_BOUNDS);
    PyModule_AddIntConstant(m, "OPT_SUMMARY", OPT_SUMMARY);
    PyModule_AddIntConstant(m, "OPT_HISTORY", OPT_HISTORY);
    PyModule_AddIntConstant(m, "OPT_SMALL", OPT_SMALL);
    PyModule_AddIntConstant(m, "OPT_KILLER", OPT_KILLER);
    PyModule_AddIntConstant(m, "OPT_TIGHT", OPT_TIGHT);
    PyModule_AddIntConstant(m, "OPT_SMALLBOUNDS", OPT_SMALLBOUNDS);
    PyModule_AddIntConstant(m, "OPT_LAST", OPT_LAST);
    PyModule_AddIntConstant(m, "OPT_RANGE", OPT_RANGE);
    PyModule_AddIntConstant(m, "OPT_SMALLEQUIV", OPT_SMALLEQUIV);
    PyModule_AddIntConstant(m, "OPT_DEEPTT", OPT_DEEPTT);
    PyModule_AddIntConstant(m, "OPT_ORDER2", OPT_ORDER2);
    PyModule_AddIntConstant(m, "OPT_CANON", OPT_CANON);
    PyModule_AddIntConstant(m, "OPT_NOSCOPA", OPT_NOSCOPA);
    PyModule_AddIntConstant(m, "OPT_DOMINANCE", OPT_DOMINANCE);
    PyModule_AddIntConstant(m, "OPT_ALL", OPT_ALL);
    PyModule_AddIntConstant(m, "OPT_DEFAULT", OPT_DEFAULT);
    return m;
}
