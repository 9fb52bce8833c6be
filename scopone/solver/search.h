/*
 * The search: fail-soft alpha-beta with the table (ab), the plain search
 * of the last cards (ab_small) and the last round played out (last_round).
 */
#ifndef SCOPONE_SEARCH_H
#define SCOPONE_SEARCH_H

#include "table.h"

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

#ifndef ABDADA_DEPTH
#define ABDADA_DEPTH 6 /* OPT_ABDADA: plies from the root where threads mark the nodes they search */
#endif

/* the node `key` is no longer searched by this thread (unless another marked it since) */
static inline void busy_clear(uint64_t *busy, uint64_t key) {
    uint64_t k = key;
    __atomic_compare_exchange_n(&busy[key & (BUSY_SLOTS - 1)], &k, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/*
 * OPT_QUASI: the non-Denari moves searched at a node, with their values.  Two
 * moves of same-rank cards with the same capture lead to positions that differ
 * by the suits of the two cards alone; if neither is Denari, only the primiera
 * point can tell them apart, so their values differ by at most 2.
 */
typedef struct {
    int n, card[16], val[16];
    uint64_t cap[16];
} Twins;

/* whether m can be skipped: a twin's value (fail-soft, so a bound on the twin's
 * value from the mover's side) clears the window by 2; *best takes that bound */
static inline int twin_skip(Twins *t, const Move *m, int maximise, int alpha, int beta, int *best) {
    for (int j = 0; j < t->n; j++) {
        if ((t->card[j] >> 2) != (m->card >> 2) || t->cap[j] != m->cap) continue;
        int bound = maximise ? t->val[j] + 2 : t->val[j] - 2;
        if (maximise ? bound > alpha : bound < beta) return 0;
        if (maximise ? bound > *best : bound < *best) *best = bound;
        return 1;
    }
    return 0;
}

static inline void twin_add(Twins *t, const Move *m, int v) {
    if (t->n < 16) { t->card[t->n] = m->card; t->cap[t->n] = m->cap; t->val[t->n++] = v; }
}

/* one child's value into a min/max node: the new best and window; nonzero on a cut-off */
static inline int minimax_step(int maximise, int v, int *best, int *alpha, int *beta) {
    if (maximise) {
        if (v > *best) { *best = v; if (v > *alpha) *alpha = v; }
    } else {
        if (v < *best) { *best = v; if (v < *beta) *beta = v; }
    }
    return *alpha >= *beta;
}

/*
 * OPT_PARTITION's bookkeeping (done whatever the options: it costs little).
 * Every search sets S->rb with the value v it returns: a bound for every
 * position of its class (see AEntry) whose primiera can end in the range S->rs,
 * a lower one if v >= beta, an upper one if v <= alpha (-RB_NONE / +RB_NONE, beyond
 * every value, when there is none; undefined when v is inside the window).  A node that fails low (high)
 * has the weakest of its children's upper (lower) bounds; one cut off has the
 * cutting child's.
 */
typedef struct { int acc, poisoned, pcls; } Robust;

/* -inf for the maximising side, +inf for the other (maximise is 0 or 1): without a branch on it */
static inline int side_worst(int inf, int maximise) { return (inf ^ -maximise) + maximise; }

/* no class bound: beyond any value (S->inf <= 2^24), and beyond it still after robust_child's
 * shifts (at most 2 a level), so that robust_child need not test for it (1.8% fewer
 * instructions, 0.976 the time: notebook, "A thirteenth session") */
#define RB_NONE (1 << 28)

static inline Robust robust_start(int maximise, int pcls) {
    Robust r = {side_worst(RB_NONE, maximise), 0, pcls};
    return r;
}

/*
 * The child's bound (its value v) for the node.  A bound proven with the primiera
 * range [plo, phi] is, less plo (phi), a bound for value less the least (most)
 * primiera point of every position of the class (their leaves differ only in
 * that point, and the range holds every leaf's below); so it moves to the node's
 * range by the difference of the ends.  It counts only where the child failed the
 * way the node fails.
 */
static inline int robust_child(const Solver *S, const Robust *r, int v, int beta) {
    return S->rb + (v >= beta ? PCLS_LO(r->pcls) - PCLS_LO(S->rs) : PCLS_HI(r->pcls) - PCLS_HI(S->rs));
}

static inline void robust_add(Solver *S, Robust *r, int maximise, int v, int beta) {
    int rb = robust_child(S, r, v, beta);
    int acc = r->acc; /* (selects, not a branch on the comparison: see free_duplicates) */
    r->acc = maximise ? (rb > acc ? rb : acc) : (rb < acc ? rb : acc);
}

/* the node's bound: rb, for the positions of its class with primiera range pcls */
static inline void robust_set(Solver *S, int rb, int pcls) { S->rb = rb; S->rs = pcls; }

/* no bound for the value v about to be returned */
static inline void robust_none(Solver *S, int v, int beta) { S->rb = v >= beta ? -RB_NONE : RB_NONE; S->rs = PCLS(-1, 1); }

/* the categories' range where the plain search began, and the primiera's range
 * there (PCLS; the class of every node of the plain search below) */
typedef struct { int lo, hi, pcls; } Range;

/*
 * OPT_RANGE: the range r narrowed to the piles pa, pb after a capture, with
 * the cards rem still in play (range_narrow: the solver's own).  The cards,
 * the Denari, the settebello and re bello end, at best for team A, with every
 * card still in play going to A, and at worst with every one going to B; the
 * primiera keeps the range of the plain search's start (recomputing it costs
 * more than it saves: measured).  Each part depends on what the class of a
 * position keeps (counts, Denari, the settebello's holder), so the bounds
 * hold for the class as the start's do.  Not with napola (r allows for it).
 */
static inline void range_narrow_to(const Solver *S, Range *r, uint64_t pa, uint64_t pb, uint64_t rem) {
    Span sp[NCAT];
    category_spans(S, pa, pb, rem, sp);
    int hi = PCLS_HI(r->pcls), lo = PCLS_LO(r->pcls);
    for (int c = 0; c < NCAT; c++) { hi += sp[c].hi; lo += sp[c].lo; }
    r->hi = hi < r->hi ? hi : r->hi; /* (selects: see free_duplicates) */
    r->lo = lo > r->lo ? lo : r->lo;
}

static inline void range_narrow(const Solver *S, Range *r) {
    range_narrow_to(S, r, S->pile[0], S->pile[1], S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table);
}

/* the value of the final piles (sc: the scope difference), with its bound for a class
 * whose primiera can end anywhere in the range pcls */
static inline int leaf_value(Solver *S, uint64_t pa, uint64_t pb, int sc, int beta, int pcls) {
    int prim, v = score_parts(S, pa, pb, &prim) + sc;
    robust_set(S, v - prim + (v >= beta ? PCLS_LO(pcls) : PCLS_HI(pcls)), pcls);
    return v;
}

/*
 * The last round's sure bound, for the seat to play with `left` plays to go
 * (each seat to play holds one card): the categories end in [r->lo, r->hi],
 * and each play but the last makes at most one scopa.  `entry`: the round
 * begins here, so S->hand holds just the cards still to play, and OPT_NOSCOPA's
 * test is made too, as small_bound makes it (inside the round S->hand still
 * holds the cards played in it).  1 with the bound in *v if it settles the
 * window.
 */
static inline int last_round_bound(Solver *S, int seat, int left, uint64_t table, const int scope[2], int entry,
                                   const Range *r, int alpha, int beta, int *v) {
    int sc = scope[0] - scope[1];
    int plays_a = (left - 1 + !(seat & 1)) / 2, plays_b = left - 1 - plays_a;
    if (entry && (OPTS(S) & OPT_NOSCOPA) &&
        no_scopa_in(S, S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3], table))
        plays_a = plays_b = 0;
    int hi = r->hi + sc + plays_a, lo = r->lo + sc - plays_b;
    mover_sweep_bound(S, seat, table, S->hand[seat], plays_a, plays_b, alpha, beta, &hi, &lo);
    if (hi <= alpha) { S->bound_cuts++; robust_set(S, hi, r->pcls); *v = hi; return 1; }
    if (lo >= beta) { S->bound_cuts++; robust_set(S, lo, r->pcls); *v = lo; return 1; }
    return 0;
}

/* OPT_RANGE in the last round: r narrowed to the piles p after a capture by `seat` with
 * `left` plays to go, for the next play's bound (none is left to narrow for at 2).  The
 * cards still in play are the table t and the hands of the seats after this one: the
 * round plays on copies, and S->hand still holds the cards played in it. */
static inline void last_round_narrow(const Solver *S, Range *r, uint64_t cap, int seat, int left, uint64_t t,
                                     const uint64_t p[2]) {
    if (!cap || left <= 2 || !(OPTS(S) & OPT_RANGE) || RULE(S, napola)) return;
    uint64_t rem = t;
    for (int k = 1; k < left; k++) rem |= S->hand[(seat + k) & 3];
    range_narrow_to(S, r, p[0], p[1], rem);
}

/*
 * The last round: every seat still to play holds one card, so the play is
 * forced but for the choice between capture options.  Plays it out on local
 * copies of the state (no make/unmake, no move ordering, no table).
 * `bounded`: the caller has just failed small_bound with this window, which
 * is the same bound as the one here (each seat's count of cards is its count
 * of plays), or a tighter one (OPT_NOSCOPA), so it is not worked out again
 * (the same nodes; 0.979 the time, 7 cards, endgames 1-20, paired).
 */
static int last_round(Solver *S, Move *ms, int seat, int left, uint64_t table, const uint64_t pile[2],
                      const int scope[2], int last, int alpha, int beta, const Range *cr, uint64_t freec,
                      int bounded) {
    uint64_t t = table, p[2] = {pile[0], pile[1]};
    int sco[2] = {scope[0], scope[1]}, l = last;
    /* the range, narrowed in place along the plays that have one move each (narrowing only
     * tightens it, and the primiera's part never changes inside the plain search, so every
     * node of such a run has the same class range: a one-child node's value and class bound
     * are its child's, and the run is played in this loop rather than one call a play) */
    Range r = *cr;
    for (;;) {
        int sc = sco[0] - sco[1];
        if (!left) return leaf_value(S, p[0], p[1], sc, beta, r.pcls);
        int v;
        if (left > 1 && !bounded && last_round_bound(S, seat, left, t, sco, 0, &r, alpha, beta, &v)) return v;
        bounded = 0;
        int c = __builtin_ctzll(S->hand[seat]);
        int n = card_moves(S, c, t, table_ranks(t), rank_counts(t) | 0x8888888888ULL, freec & t, freec != 0, ms, 0);
        if (n < 0 || (ms - S->mstack) + n + 4096 > MOVE_STACK) { /* cannot happen: checked anyway */
            S->py_error = 2;
            S->aborted = 1;
            return 0;
        }
        if (n == 1) {
            S->nodes++;
            S->by_left[left - 1]++;
            apply_play(S, c, ms[0].cap, seat & 1, left == 1, &t, p, sco, &l);
            last_round_narrow(S, &r, ms[0].cap, seat, left, t, p);
            seat = (seat + 1) & 3;
            left--;
            continue;
        }
        int maximise = (seat & 1) == 0;
        int best = side_worst(S->inf, maximise);
        Robust rob = robust_start(maximise, r.pcls);
        for (int i = 0; i < n; i++) {
            uint64_t t2 = t, p2[2] = {p[0], p[1]};
            int sco2[2] = {sco[0], sco[1]}, l2 = l;
            S->nodes++;
            S->by_left[left - 1]++;
            apply_play(S, c, ms[i].cap, seat & 1, left == 1, &t2, p2, sco2, &l2);
            Range narrowed = r;
            last_round_narrow(S, &narrowed, ms[i].cap, seat, left, t2, p2);
            v = last_round(S, ms + n, (seat + 1) & 3, left - 1, t2, p2, sco2, l2, alpha, beta, &narrowed, freec, 0);
            robust_add(S, &rob, maximise, v, beta);
            if (minimax_step(maximise, v, &best, &alpha, &beta)) return best; /* S->rb: the cutting child's */
        }
        robust_set(S, rob.acc, r.pcls);
        return best;
    }
}

/* whether the rest of the deal is one round: the seats still to play hold one card each */
static inline int in_last_round(const Solver *S) {
    int left = S->cards_left;
    if (left > 4) return 0;
    for (int i = 0; i < 4; i++)
        if (popc(S->hand[(S->to_move + i) & 3]) != (i < left)) return 0;
    return 1;
}

/*
 * A play of the plain search that leaves the last round (the mover holds two
 * cards, every other seat one), played on copies as last_round plays: what
 * make_play, ab_small's sure bound (small_bound, worked out here on the copies)
 * and unmake did for it, without the hashes the last round never reads.  The
 * same nodes; 0.977 the time, 7 cards, paired (notebook, "The night of 4 December").
 */
static int into_last_round(Solver *S, Move *ms, const Move *m, int alpha, int beta, const Range *cr,
                           uint64_t freec) {
    int seat = S->to_move, next = (seat + 1) & 3;
    uint64_t t = S->table, p[2] = {S->pile[0], S->pile[1]}, h0 = S->hand[seat];
    int sco[2] = {S->scope[0], S->scope[1]}, l = S->last;
    apply_play(S, m->card, m->cap, seat & 1, 0, &t, p, sco, &l);
    S->hand[seat] = h0 & ~(1ULL << m->card); /* last_round reads the hands of the seats to play */
    /* five plays to go, counting this one: the seats after it hold every card in hand */
    Range r = *cr;
    last_round_narrow(S, &r, m->cap, seat, 5, t, p);
    /* small_bound of the position after the play, then the round */
    int v;
    if (!last_round_bound(S, next, 4, t, sco, 1, &r, alpha, beta, &v))
        v = last_round(S, ms, next, 4, t, p, sco, l, alpha, beta, &r, freec, 1);
    S->hand[seat] = h0;
    return v;
}

/* whether this node's plays all leave the last round (see into_last_round) */
static inline int before_last_round(const Solver *S) {
    if (S->cards_left != 5 || !(OPTS(S) & OPT_LAST)) return 0;
    int s = S->to_move;
    return popc(S->hand[s]) == 2 && popc(S->hand[(s + 1) & 3]) == 1 && popc(S->hand[(s + 2) & 3]) == 1 &&
           popc(S->hand[(s + 3) & 3]) == 1;
}

/* OPT_ORANKS: the ranks of an outcome key's cards (see outcome_slot) in r, place by place: the
 * table's as counts, the mover's two cards, then the other seats' one each, and the mover */
static inline void outcome_ranks(const uint64_t k[2], uint64_t r[2]) {
    r[0] = rank_counts(k[0] & ALL40) | (k[0] >> 42 & 15) << 40 | (k[0] >> 48 & 15) << 44;
    r[1] = (k[1] >> 2 & 15) | (k[1] >> 8 & 15) << 4 | (k[1] >> 14 & 15) << 8 | (k[1] >> 18 & 7) << 12;
}

/* OPT_OUTCOMES: the slot of the node before the last round at S (see OEntry), its key in k: the
 * table and the mover's two cards (k[0]), the three other seats' cards and the mover (k[1]; its
 * bit 20 set, so that no key is a zeroed entry's).  With OPT_ORANKS the slot comes from the ranks
 * of those cards (outcome_ranks, kept in k[2] and k[3]), so that the nodes of the same ranks meet
 * in it */
static inline OEntry *outcome_slot(const Solver *S, uint64_t k[4]) {
    int seat = S->to_move;
    uint64_t h = S->hand[seat];
    k[0] = S->table | (uint64_t)__builtin_ctzll(h) << 40 | (uint64_t)__builtin_ctzll(h & (h - 1)) << 46;
    k[1] = (uint64_t)__builtin_ctzll(S->hand[(seat + 1) & 3]) | (uint64_t)__builtin_ctzll(S->hand[(seat + 2) & 3]) << 6 |
           (uint64_t)__builtin_ctzll(S->hand[(seat + 3) & 3]) << 12 | (uint64_t)seat << 18 | 1ULL << 20;
    k[2] = k[0];
    k[3] = k[1];
    if (OPTS(S) & OPT_ORANKS) outcome_ranks(k, k + 2);
    return S->ot + (mix64(k[2] ^ k[3] * 0x9E3779B97F4A7C15ULL) & S->ot_mask);
}

/* the cards of x among those of old (one place's cards), moved to those of new with the same
 * places in card order (new holds as many cards, of the same ranks) */
static inline uint64_t outcome_remap(uint64_t x, uint64_t old, uint64_t new) {
    uint64_t y = 0;
    while (old) {
        uint64_t o = old & -old, n = new & -new;
        if (x & o) y |= n;
        old ^= o;
        new ^= n;
    }
    return y;
}

/* OPT_ORANKS: whether the entry e is another node's with the ranks of the node keyed k (outcome_slot) */
static inline int outcome_same_ranks(const OEntry *e, const uint64_t k[4]) {
    if (!(e->k1 >> 20 & 1)) return 0; /* empty */
    uint64_t ek[2] = {e->k0, e->k1}, q[2];
    outcome_ranks(ek, q);
    return q[0] == k[2] && q[1] == k[3];
}

/* OPT_ORANKS: e, another node's with the same ranks in the same places (outcome_same_ranks), taken
 * over by the node keyed k: in each line, each card moved to the one of its rank in its place */
static void outcome_retarget(OEntry *e, const uint64_t k[2]) {
    uint64_t ot = e->k0 & ALL40, nt = k[0] & ALL40;
    int oc[5] = {(int)(e->k0 >> 40 & 63), (int)(e->k0 >> 46 & 63), (int)(e->k1 & 63), (int)(e->k1 >> 6 & 63),
                 (int)(e->k1 >> 12 & 63)};
    int nc[5] = {(int)(k[0] >> 40 & 63), (int)(k[0] >> 46 & 63), (int)(k[1] & 63), (int)(k[1] >> 6 & 63),
                 (int)(k[1] >> 12 & 63)};
    for (int i = 0; i < OUTCOME_LINES; i++) {
        uint64_t line = e->line[i];
        if (!line) continue;
        uint64_t x = line & ALL40, y = outcome_remap(x, ot, nt);
        for (int j = 0; j < 5; j++) y |= (x >> oc[j] & 1) << nc[j];
        line = (line & ~ALL40) | y;
        if (line & OUTCOME_TODO) { /* the mover's card: the first or the second of the two */
            int c = (int)(line >> 40 & 63);
            line = (line & ~(63ULL << 40)) | (uint64_t)(c == oc[0] ? nc[0] : nc[1]) << 40;
        }
        e->line[i] = line;
    }
    e->k0 = k[0];
    e->k1 = k[1];
}

/* the cards each team takes along a line (see OEntry), `cards` those in play at its node and
 * `last` the team that captured last before it: if nobody captures along the line, they all go
 * to that team (to none if there is none) */
static inline void outcome_piles(uint64_t line, uint64_t cards, int last, uint64_t *a, uint64_t *b) {
    if (line >> 48 & 1) {
        *a = last == 0 ? cards : 0;
        *b = last == 1 ? cards : 0;
    } else {
        *a = line & ALL40;
        *b = cards & ~*a;
    }
}

/* where a line leads, as a number to sort the lines by (higher first, for the mover's team):
 * scope, then the cards taken (the piles are not known here) */
static inline int outcome_order(const Solver *S, uint64_t line, uint64_t cards) {
    uint64_t a, b;
    outcome_piles(line, cards, -1, &a, &b);
    int v = 8 * ((int)(line >> 40 & 15) - (int)(line >> 44 & 15)) + 2 * (popc(a) - popc(b)) +
            popc(a & DENARI_MASK) - popc(b & DENARI_MASK) + 3 * ((int)(a >> SETTEBELLO & 1) - (int)(b >> SETTEBELLO & 1));
    return (S->to_move & 1) ? -v : v;
}

/* the plays of card c on table t, in ms, every capture choice kept (a line must not depend on
 * the piles, so none is dropped as equivalent); -1 if they do not fit the move stack */
static inline int outcome_moves(const Solver *S, int c, uint64_t t, Move *ms) {
    int n = card_moves(S, c, t, table_ranks(t), rank_counts(t) | 0x8888888888ULL, 0, 0, ms, 0);
    return n < 0 || (ms - S->mstack) + n + 4096 > MOVE_STACK ? -1 : n;
}

/* the capture of a line's one play of card c on table t (0: a lay-down): its only move, or at the
 * deal's last play any of them (every card left goes to its team alike); OUTCOME_NONE if it has a
 * choice or the moves do not fit */
static inline uint64_t outcome_play(const Solver *S, int c, uint64_t t, Move *ms, int last_play) {
    if (!t) return 0; /* on an empty table every card is laid down */
    int r = outcome_moves(S, c, t, ms);
    return r < 0 || (r != 1 && !last_play) ? OUTCOME_NONE : ms[0].cap;
}

/* OPT_OUTCOMES: the line of the mover's play of card c taking cap at S (see OEntry), ms room for
 * moves; OUTCOME_NONE if a later play has a choice between captures (or the moves do not fit).
 * The node's last capturer is not read: it is not in the key (see outcome_piles) */
static uint64_t outcome_line(const Solver *S, int c, uint64_t cap, Move *ms) {
    int seat = S->to_move, sco[2] = {0, 0}, l = -1;
    uint64_t t = S->table, p[2] = {0, 0};
    apply_play(S, c, cap, seat & 1, 0, &t, p, sco, &l);
    for (int j = 1; j <= 4; j++) { /* the round: each seat's one card, the mover's other last */
        int st = (seat + j) & 3, cc = __builtin_ctzll(j < 4 ? S->hand[st] : S->hand[seat] & ~(1ULL << c));
        uint64_t taken = outcome_play(S, cc, t, ms, j == 4);
        if (taken == OUTCOME_NONE) return OUTCOME_NONE;
        apply_play(S, cc, taken, st & 1, j == 4, &t, p, sco, &l);
    }
    return OUTCOME_LINE | p[0] | (uint64_t)sco[0] << 40 | (uint64_t)sco[1] << 44 | (uint64_t)(l < 0) << 48;
}

/* OPT_OUTCOMES: e filled for the node before the last round at S (ms: room for moves), keyed k:
 * its first line made, the others left to make (OUTCOME_TODO) until a visit needs them (on a
 * node's first visit the first line cuts off seven times in ten); 0 if it is not kept (the mover
 * has more than OUTCOME_LINES plays, or the first line's later plays have a choice) */
static int outcome_fill(Solver *S, OEntry *e, const uint64_t k[2], Move *ms) {
    e->k0 = k[0]; e->k1 = k[1];
    e->line[0] = OUTCOME_NONE; /* until the node is kept */
    int n = 0, key[OUTCOME_LINES];
    uint64_t todo[OUTCOME_LINES], table = S->table;
    for (uint64_t h = S->hand[S->to_move]; h; h &= h - 1) {
        int c = __builtin_ctzll(h), m = outcome_moves(S, c, table, ms);
        if (m < 0 || n + m > OUTCOME_LINES) return 0;
        for (int i = 0; i < m; i++) {
            /* the plain search's order: sweeps, other captures, then lay-downs of the least
             * primiera value (by insertion) */
            uint64_t cap = ms[i].cap;
            int o = cap ? (cap == table ? 200 : 100) + popc(cap) : -PV[(c >> 2) + 1], at = n++;
            for (; at > 0 && key[at - 1] < o; at--) { todo[at] = todo[at - 1]; key[at] = key[at - 1]; }
            todo[at] = OUTCOME_TODO | cap | (uint64_t)c << 40; key[at] = o;
        }
    }
    if (!n) return 0;
    uint64_t first = outcome_line(S, (int)(todo[0] >> 40 & 63), todo[0] & ALL40, ms);
    if (first == OUTCOME_NONE) return 0;
    for (int i = 1; i < OUTCOME_LINES; i++) e->line[i] = i < n ? todo[i] : 0;
    e->line[0] = first;
    return 1;
}

/*
 * OPT_OUTCOMES: the value of the node before the last round at S from its lines
 * (e, its slot, keyed k): each is scored on the piles as leaf_value scores the deal's
 * end, in order, made when first needed.  1 with the value in *v; 0 if the node is not
 * kept (the search plays it).  The lines are scored, not played: each counts as one node.
 */
static int outcome_search(Solver *S, OEntry *e, const uint64_t k[4], Move *ms, int alpha, int beta,
                          const Range *cr, int *v) {
    if (e->k0 == k[0] && e->k1 == k[1]) {
        if (e->line[0] == OUTCOME_NONE) return 0;
        S->ot_hits++;
    } else if ((OPTS(S) & OPT_ORANKS) && outcome_same_ranks(e, k)) {
        if (e->line[0] == OUTCOME_NONE) return 0; /* not kept: a later play has a choice here too */
        outcome_retarget(e, k);
        S->ot_hits++;
        S->ot_moved++;
    } else if (!outcome_fill(S, e, k, ms)) return 0;
    int maximise = (S->to_move & 1) == 0, best = side_worst(S->inf, maximise);
    Robust rob = robust_start(maximise, cr->pcls);
    uint64_t cards = S->table | S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3];
    int sd = S->scope[0] - S->scope[1];
    for (int i = 0; i < OUTCOME_LINES && e->line[i]; i++) {
        uint64_t line = e->line[i], a, b;
        if (line & OUTCOME_TODO) {
            line = outcome_line(S, (int)(line >> 40 & 63), line & ALL40, ms);
            /* not kept after all: the search plays the node (no line has cut off yet) */
            if (line == OUTCOME_NONE) { e->line[0] = OUTCOME_NONE; return 0; }
            e->line[i] = line;
            /* the later visits: the likelier to cut first (outcome_order) */
            if (i == 1 && outcome_order(S, line, cards) > outcome_order(S, e->line[0], cards)) {
                e->line[1] = e->line[0]; e->line[0] = line;
            }
        }
        outcome_piles(line, cards, S->last, &a, &b);
        S->nodes++;
        S->by_left[4]++;
        int x = leaf_value(S, S->pile[0] | a, S->pile[1] | b, sd + (int)(line >> 40 & 15) - (int)(line >> 44 & 15),
                           beta, cr->pcls);
        robust_add(S, &rob, maximise, x, beta);
        if (minimax_step(maximise, x, &best, &alpha, &beta)) { *v = best; return 1; } /* S->rb: that line's */
    }
    robust_set(S, rob.acc, cr->pcls);
    *v = best;
    return 1;
}

static int ab_small_part(Solver *S, int sp, int alpha, int beta, const Range *cr, uint64_t freec);

#ifndef SMALLTT_MIN
#define SMALLTT_MIN 5 /* OPT_SMALLTT: the fewest cards left where the plain search uses its table */
#endif
#ifndef SMALLTT_PREFETCH
#define SMALLTT_PREFETCH 4 /* OPT_SMALLTT: the children whose slots a node fetches ahead */
#endif

/* OPT_SMALLTT: keep the value rel (less the scope difference) found with the window (a, b) */
static inline void small_store(Solver *S, SEntry *e, uint64_t key, uint64_t check, int rel, int a, int b,
                               uint64_t move) {
    if (rel < -100 || rel > 100) return;
    if (e->key != key || e->check != check) {
        e->key = key; e->check = check; e->lo = e->rlo = -TT_NONE; e->hi = e->rhi = TT_NONE;
    }
    /* the class bound S->rb (the node's, set before this is called), less the scope; none if infinite */
    int rb = S->rb - (S->scope[0] - S->scope[1]);
    if (S->rb <= -S->inf || S->rb >= S->inf || rb < -100 || rb > 100) rb = rel <= a ? TT_NONE : -TT_NONE;
    if (rel <= a) {
        if (rel < e->hi) { e->hi = (int8_t)rel; e->rhi = (int8_t)rb; e->rshi = (uint8_t)S->rs; }
    } else if (rel >= b) {
        if (rel > e->lo) { e->lo = (int8_t)rel; e->rlo = (int8_t)rb; e->rslo = (uint8_t)S->rs; }
    } else { e->lo = e->hi = (int8_t)rel; e->rlo = -TT_NONE; e->rhi = TT_NONE; }
    e->move = move;
}

/*
 * The plain search's sure bounds: 1 with the bound in *v if they settle the
 * window.  The categories end in [cr->lo, cr->hi] (what was still open where
 * the plain search began); each play but the last makes at most one scopa.
 */
static inline int small_bound(Solver *S, int alpha, int beta, const Range *cr, int *v) {
    int sc = S->scope[0] - S->scope[1];
    int na = popc(S->hand[0] | S->hand[2]), nb = popc(S->hand[1] | S->hand[3]);
    if ((S->to_move + S->cards_left - 1) & 1) nb--; else na--;
    if ((OPTS(S) & OPT_NOSCOPA) && no_scopa_left(S)) na = nb = 0;
    int hi = cr->hi + sc + na, lo = cr->lo + sc - nb;
    /* (the mover's play is counted in na or nb unless it is the deal's last, when they are 0) */
    mover_sweep_bound(S, S->to_move, S->table, S->hand[S->to_move], na, nb, alpha, beta, &hi, &lo);
    if (hi <= alpha) { S->bound_cuts++; robust_set(S, hi, cr->pcls); *v = hi; return 1; }
    if (lo >= beta) { S->bound_cuts++; robust_set(S, lo, cr->pcls); *v = lo; return 1; }
    return 0;
}

static int ab_small_body(Solver *S, int sp, int alpha, int beta, const Range *cr, uint64_t freec, uint64_t ak,
                         int ast, int *hit);

/* the last plays: no ordering but captures first, no table but OPT_SMALLTT's small one */
static int ab_small(Solver *S, int sp, int alpha, int beta, const Range *cr, uint64_t freec) {
    if (S->cards_left == 0) return leaf_value(S, S->pile[0], S->pile[1], S->scope[0] - S->scope[1], beta, cr->pcls);
    /* OPT_OUTCOMES: the slot is fetched while the sure bounds are worked out */
    OEntry *oe = NULL;
    uint64_t ok[4] = {0, 0, 0, 0};
    if (S->ot && before_last_round(S)) {
        oe = outcome_slot(S, ok);
        __builtin_prefetch(oe);
    }
    int v;
    if (small_bound(S, alpha, beta, cr, &v)) return v;
    if (oe && outcome_search(S, oe, ok, S->mstack + sp, alpha, beta, cr, &v)) return v;
    return ab_small_body(S, sp, alpha, beta, cr, freec, 0, 0, NULL);
}

/*
 * OPT_PARTITION: the class's bound for a node whose primiera range is pcls, if
 * it settles the window: 1 with the value in S->rb.  An entry keeps a lower
 * bound less the low end of the range it was proven for, and an upper bound less
 * the high end: what holds for the class whatever the primiera, shifted by the
 * primiera's least (most) in the range of the node that uses it.  With OPT_PDOM
 * (ast: the node's piles' state, see AEntry) a lower bound counts where team A
 * leads the majorities by as much as where it was proven or more, an upper bound
 * where by as much or less; and elsewhere lowered (raised) by what the majorities'
 * points can lose (gain) at every leaf (astate_pen): 7 cards, endgames 1-20, 1.4%
 * fewer nodes, 0.4% fewer instructions (notebook, "A fourteenth session").
 */
/* partition_probe's hit: the bound b for the node's primiera range pcls, counted (other_state: an
 * entry kept for other leads; pen: what it was lowered or raised by) */
static inline int partition_hit(Solver *S, int b, int pcls, int other_state, int pen) {
    S->at_hits++;
    S->at_dom_hits += other_state;
    S->at_pen_hits += pen > 0;
    robust_set(S, b, pcls);
    return 1;
}

static inline int partition_probe(Solver *S, const AEntry *slot, uint64_t ak, int ast, int pcls, int alpha,
                                  int beta) {
    AEntry e;
    if (!abstract_probe(slot, ak, &e)) return 0;
    int sd = S->scope[0] - S->scope[1], lo = aentry_lo(e), hi = aentry_hi(e), es = aentry_state(e);
    /* (the penalty is worked out only where the bound would settle the window without it) */
    if (lo > -TT_NONE && lo + sd + PCLS_LO(pcls) >= beta) {
        int pen = astate_pen(ast, es, S->odd_totals), b = lo + sd + PCLS_LO(pcls) - pen;
        if (b >= beta) return partition_hit(S, b, pcls, es != ast, pen);
    }
    if (hi < TT_NONE && hi + sd + PCLS_HI(pcls) <= alpha) {
        int pen = astate_pen(es, ast, S->odd_totals), b = hi + sd + PCLS_HI(pcls) + pen;
        if (b <= alpha) return partition_hit(S, b, pcls, es != ast, pen);
    }
    return 0;
}

/* OPT_PARTITION: keep the bound S->rb of the value v just found, if it fails the window as v does.
 * S->rb holds for the primiera range S->rs, which after a cut-off is the cutting child's: in the
 * plain search that can be narrower than the node's (an smalltt hit keeps the range it was proven
 * for), so the entry is shifted by S->rs, not by the node's range. */
static inline void partition_store(Solver *S, AEntry *slot, uint64_t ak, int ast, int v, int alpha, int beta) {
    int sd = S->scope[0] - S->scope[1];
    if (v >= beta && S->rb >= beta) abstract_store(S, slot, ak, ast, 1, S->rb - sd - PCLS_LO(S->rs));
    else if (v <= alpha && S->rb <= alpha) abstract_store(S, slot, ak, ast, 0, S->rb - sd - PCLS_HI(S->rs));
}

/* ab_small_body's class probe, made once: before the first sweep is searched, or else once the
 * first card's moves are made (so that the slot, fetched ahead, has had time to arrive); 1 if
 * the class's bound settles the node */
static inline int deferred_probe(Solver *S, uint64_t *ak, int ast, const Range *cr, int alpha, int beta) {
    uint64_t k = *ak;
    *ak = 0;
    return k && partition_probe(S, abstract_slot_plain(S, k), k, ast, cr->pcls, alpha, beta);
}

/* a plain node's search, one move at a time (ab_small_body) */
typedef struct {
    int maximise, alpha, beta, best, v; /* v: the last move's value (for smalltt's move) */
    int quasi_on, to_last, child_part;
    Robust rob;
    const Range *cr;
    uint64_t freec;
    Twins twins;
} PlainNode;

/* the move m of a plain node searched (its children's moves from S->mstack + csp); 1 on a cut-off */
static inline __attribute__((always_inline)) int plain_move(Solver *S, PlainNode *P, const Move *m, int csp) {
    int quasi = P->quasi_on && (m->card & 3);
    if (quasi && twin_skip(&P->twins, m, P->maximise, P->alpha, P->beta, &P->best)) {
        S->quasi_skips++;
        P->rob.poisoned = 1; /* a twin's value bounds this move's only up to the primiera */
        return 0;
    }
    S->nodes++;
    S->by_left[S->cards_left - 1]++;
    int v;
    if (P->to_last) {
        v = into_last_round(S, S->mstack + csp, m, P->alpha, P->beta, P->cr, P->freec);
    } else {
        Undo u;
        u.z1 = u.z2 = 0; /* (read only where exact, which gcc cannot follow; dead stores where it can) */
        /* here only smalltt reads z1, z2 (a constant 0 where the options are constants: CORE_STANDARD) */
        int exact = (OPTS(S) & OPT_SMALLTT) && S->st != NULL;
        make_play(S, m->card, m->cap, &u, exact);
        const Range *ccr = P->cr;
        Range narrowed;
        if (m->cap && (OPTS(S) & OPT_RANGE) && !RULE(S, napola)) { /* the piles changed */
            narrowed = *P->cr;
            range_narrow(S, &narrowed);
            ccr = &narrowed;
        }
        v = P->child_part ? ab_small_part(S, csp, P->alpha, P->beta, ccr, P->freec)
                          : ab_small(S, csp, P->alpha, P->beta, ccr, P->freec);
        unmake_play(S, &u, exact);
    }
    if (quasi) twin_add(&P->twins, m, v);
    robust_add(S, &P->rob, P->maximise, v, P->beta);
    P->v = v;
    return minimax_step(P->maximise, v, &P->best, &P->alpha, &P->beta);
}

/*
 * The cards of hand that can sweep the table (not empty) now: a capture of the
 * whole table is one whose values sum to the card's (a table with a card of the
 * same rank and another sums to more), and an Ace that takes all takes it unless
 * it must take a lone Ace.  0 with quindici, whose captures card_moves alone makes.
 */
static inline uint64_t sweepers(const Solver *S, uint64_t hand, uint64_t table) {
    if (RULE(S, quindici)) return 0;
    uint64_t m = cards_of_value(hand, table_sum(table));
    if (RULE(S, apt)) {
        m &= ~15ULL;
        if (!(RULE(S, asso_takes_asso) && (table & 15)) || !(table & (table - 1))) m |= hand & 15;
    }
    return m;
}

/* too many moves: cannot happen in the plain search, checked anyway */
static int plain_overflow(Solver *S) {
    S->py_error = 2;
    S->aborted = 1;
    return 0;
}

/* whether a plain node makes its moves card by card (PLAIN_LAZY; not with smalltt's move first) */
#ifndef PLAIN_LAZY
#define PLAIN_LAZY 1
#endif
static inline int plain_lazy(const Solver *S, const SEntry *se) {
    return PLAIN_LAZY && (OPTS(S) & OPT_ORDER) && !se;
}

/* ab_small once the sure bounds failed to settle the window.  ak: the class key to probe, 0 for
 * none (its slot was fetched ahead, and is read once the first moves are made), with *hit set
 * if its bound settles the node */
static int ab_small_body(Solver *S, int sp, int alpha, int beta, const Range *cr, uint64_t freec, uint64_t ak,
                         int ast, int *hit) {
    if ((OPTS(S) & OPT_LAST) && S->cards_left <= 4 && in_last_round(S))
        return last_round(S, S->mstack + sp, S->to_move, S->cards_left, S->table, S->pile, S->scope, S->last,
                          alpha, beta, cr, freec, 1); /* small_bound just failed: see last_round */
    if ((OPTS(S) & OPT_SMALLBOUNDS) && S->cards_left >= SMALLBOUNDS_MIN) {
        /* every category is monotone in the cards a team takes: the best A can
         * reach is all cards still in play going to A, plus its possible scope */
        uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
        int sc = S->scope[0] - S->scope[1];
        /* scope only add to these: look at them when the categories alone would cut */
        int hi = score_piles(S, S->pile[0] | rem, S->pile[1]) + sc;
        if (hi <= alpha && (hi += scope_max(S, 0)) <= alpha) { S->bound_cuts++; robust_none(S, hi, beta); return hi; }
        int lo = score_piles(S, S->pile[0], S->pile[1] | rem) + sc;
        if (lo >= beta && (lo -= scope_max(S, 1)) >= beta) { S->bound_cuts++; robust_none(S, lo, beta); return lo; }
    }
    /* OPT_SMALLTT: the exact position's bounds (its card locations, mover, last capturer and pile
     * A; values less the scope difference) */
    SEntry *se = NULL;
    uint64_t skey = 0, scheck = 0, smove = NO_MOVE;
    int sd = S->scope[0] - S->scope[1], a0 = alpha, b0 = beta;
    if (S->st && S->cards_left >= SMALLTT_MIN) {
        skey = S->z1 ^ ZMOVER[S->to_move][S->last + 1];
        scheck = S->z2 ^ ZMOVER2[S->to_move][S->last + 1] ^ mix64(S->pile[0] ^ 0x2545F4914F6CDD1DULL);
        se = S->st + (skey & S->st_mask);
        if (se->key == skey && se->check == scheck) {
            if (se->lo > -TT_NONE && se->lo + sd >= beta) {
                S->st_hits++;
                if (se->rlo > -TT_NONE) robust_set(S, se->rlo + sd, se->rslo); else robust_none(S, se->lo + sd, beta);
                return se->lo + sd;
            }
            if (se->hi < TT_NONE && se->hi + sd <= alpha) {
                S->st_hits++;
                if (se->rhi < TT_NONE) robust_set(S, se->rhi + sd, se->rshi); else robust_none(S, se->hi + sd, beta);
                return se->hi + sd;
            }
            smove = se->move;
        }
    }
    PlainNode P;
    P.maximise = (S->to_move & 1) == 0;
    P.alpha = alpha; P.beta = beta;
    P.best = side_worst(S->inf, P.maximise);
    P.rob = robust_start(P.maximise, cr->pcls);
    P.twins.n = 0;
    P.quasi_on = (OPTS(S) & OPT_QUASI) != 0;
    P.to_last = before_last_round(S);
    P.child_part = S->at && S->cards_left - 1 >= PARTITION_MIN && beta == alpha + 1;
    P.cr = cr; P.freec = freec;
    P.v = 0;
    Move *ms = S->mstack + sp;
    if (plain_lazy(S, se)) {
        /*
         * The moves card by card (not all of them first, then ordered): each card's captures as
         * soon as they are made, since most nodes cut off on one of the first card's, and the
         * other cards' moves were never needed (a third of the moves made went unsearched);
         * the sweeps before them all, and the lay-downs after them, the cards of least
         * primiera value first (as the table nodes order them).  7 cards, endgames 1-20:
         * 992.3 M nodes against 1,010.0 M with the order of the whole list (sweeps, captures,
         * lay-downs, by swaps), 0.968 the time, paired (notebook, "Later on 5 December").
         */
        uint64_t hand = S->hand[S->to_move], table = S->table, freet = freec & table, lays = 0;
        int equiv = freec != 0;
        hand &= ~free_duplicates(freec, hand);
        uint64_t swept = table ? sweepers(S, hand, table) : 0;
        for (uint64_t m = swept; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            if (deferred_probe(S, &ak, ast, cr, alpha, beta)) { *hit = 1; return S->rb; }
            ms[0].card = c; ms[0].cap = table;
            if (plain_move(S, &P, ms, sp + 1)) return P.best;
        }
        uint64_t tc = rank_counts(table) | 0x8888888888ULL;
        unsigned tr = table_ranks(table);
        while (hand) {
            int c = __builtin_ctzll(hand);
            hand &= hand - 1;
            int k = card_moves(S, c, table, tr, tc, freet, equiv, ms, 0);
            if (k < 0 || sp + k + 4096 > MOVE_STACK) return plain_overflow(S);
            if (deferred_probe(S, &ak, ast, cr, alpha, beta)) { *hit = 1; return S->rb; }
            if (!ms[0].cap) { lays |= 1ULL << c; continue; }
            for (int i = 0; i < k; i++) /* (the sweep was searched above) */
                if (!(ms[i].cap == table && (swept >> c & 1)) && plain_move(S, &P, ms + i, sp + k)) return P.best;
        }
        while (lays) { /* (1-3 cards: a selection) */
            int c = __builtin_ctzll(lays), bs = 1000;
            for (uint64_t m = lays; m; m &= m - 1) {
                int x = __builtin_ctzll(m), sc = PV[(x >> 2) + 1] * 2 + (int)(DENARI_MASK >> x & 1);
                int lt = sc < bs; /* (selects: see free_duplicates) */
                bs = lt ? sc : bs;
                c = lt ? x : c;
            }
            lays &= ~(1ULL << c);
            ms[0].card = c; ms[0].cap = 0;
            if (plain_move(S, &P, ms, sp + 1)) return P.best;
        }
    } else {
        int n = gen_moves(S, ms, freec);
        if (n < 0 || sp + n + 4096 > MOVE_STACK) return plain_overflow(S);
        if (deferred_probe(S, &ak, ast, cr, alpha, beta)) { *hit = 1; return S->rb; }
        if (OPTS(S) & OPT_ORDER) {
            /* sweeps first, then other captures, then lay-downs */
            int k = 0;
            for (int i = 0; i < n; i++)
                if (ms[i].cap == S->table && ms[i].cap) { Move t = ms[k]; ms[k] = ms[i]; ms[i] = t; k++; }
            for (int i = k; i < n; i++)
                if (ms[i].cap) { Move t = ms[k]; ms[k] = ms[i]; ms[i] = t; k++; }
            if (smove != NO_MOVE)
                for (int i = 0; i < n; i++)
                    if ((uint64_t)ms[i].card == (smove & 63) && ms[i].cap == smove >> 6) {
                        Move t = ms[i];
                        memmove(ms + 1, ms, sizeof(Move) * i);
                        ms[0] = t;
                        break;
                    }
        }
        if (S->st && S->cards_left - 1 >= SMALLTT_MIN) /* the children's slots, fetched before the first is searched */
            for (int i = 0; i < n && i < SMALLTT_PREFETCH; i++) __builtin_prefetch(S->st + (child_key(S, ms + i) & S->st_mask));
        for (int i = 0; i < n; i++) {
            if (plain_move(S, &P, ms + i, sp + n)) {
                if (se) small_store(S, se, skey, scheck, P.best - sd, a0 - sd, b0 - sd, ms[i].card | ms[i].cap << 6);
                return P.best;
            }
            if (se && P.v == P.best) smove = ms[i].card | ms[i].cap << 6;
        }
    }
    if (P.rob.poisoned) robust_none(S, P.best, beta);
    else robust_set(S, P.rob.acc, cr->pcls);
    if (se) small_store(S, se, skey, scheck, P.best - sd, a0 - sd, b0 - sd, smove);
    return P.best;
}

/* ab_small with the partition table (the caller checked that it is used here).  The class's
 * slot is fetched once the sure bounds fail and read last, after the first moves (ab_small_body):
 * its load (a miss in L2, most times) took 77% of this function's time when it came first.  What
 * the sure bounds settle is not kept in the class table: they settle it again as cheaply, and
 * the class key is not worked out for them (1.6% fewer instructions than with the slot fetched
 * while they are: notebook, "A thirteenth session"). */
static int ab_small_part(Solver *S, int sp, int alpha, int beta, const Range *cr, uint64_t freec) {
    int v;
    if (small_bound(S, alpha, beta, cr, &v)) return v;
    int ast;
    uint64_t ak = abstract_key(S, &ast);
    AEntry *slot = abstract_slot_plain(S, ak);
    __builtin_prefetch(slot);
    int hit = 0;
    v = ab_small_body(S, sp, alpha, beta, cr, freec, ak, ast, &hit);
    if (!hit && !S->aborted) partition_store(S, slot, ak, ast, v, alpha, beta);
    return v;
}

#ifndef ETC_MIN
#define ETC_MIN 10 /* OPT_ETC: the fewest cards left at a node that looks at its children's entries */
#endif

/*
 * The bounds the table already holds for the child of move m, without searching it
 * (OPT_ETC, OPT_CHILDREN): the entries of its card locations read as pile_bounds reads
 * them (by pile A, so the child's pile summary need not be computed); -inf, inf if none.
 */
static inline void child_bounds(Solver *S, const Move *m, int *lo, int *hi) {
    Undo u;
    make(S, m->card, m->cap, &u);
    uint64_t key = S->z1 ^ ZMOVER[S->to_move][S->last + 1];
    uint64_t tag = (S->z2 ^ ZMOVER2[S->to_move][S->last + 1]) >> 54;
    const Entry *b = bucket_at(S, key, S->cards_left);
    *lo = -S->inf; *hi = S->inf;
    for (int j = 0; j < 2 && key; j++) {
        Entry e;
        if (entry_load(b + j, &e) == key && (e.move >> 54) == tag) pile_bounds(S, &e, S->scope[0] - S->scope[1], lo, hi);
    }
    unmake(S, &u);
}

/*
 * OPT_ETC (enhanced transposition cutoff): a child whose entry already holds a
 * bound that cuts the node off, found before any move is searched; 1 with that
 * bound in *v.
 */
static int etc_cut(Solver *S, const Move *ms, int n, int maximise, int alpha, int beta, int *v) {
    for (int i = 0; i < n; i++) {
        int lo, hi;
        child_bounds(S, ms + i, &lo, &hi);
        if (maximise ? lo >= beta : hi <= alpha) { *v = maximise ? lo : hi; return 1; }
    }
    return 0;
}

/*
 * OPT_HINT: a move as every position of its class sees it (their game trees
 * are the same but for the suits of the cards that are not Denari): a Denari
 * card as itself and another card by rank (bit 6 set); of the cards taken, the
 * Denari one by one and the others as a count per rank, two bits a rank.
 * 37 bits; the slot's other bits hold the top of the class key.
 */
static inline uint64_t move_sig(uint64_t card, uint64_t cap) {
    uint64_t c = (DENARI_MASK >> card & 1) ? card : ((card >> 2) | 64);
    uint64_t d = 0, r = 0;
    for (uint64_t m = cap; m; m &= m - 1) {
        int x = __builtin_ctzll(m);
        if (DENARI_MASK >> x & 1) d |= 1ULL << (x >> 2);
        else r += 1ULL << (2 * (x >> 2));
    }
    return c | d << 7 | r << 17;
}
#define HINT_SIG ((1ULL << 37) - 1)

/* OPT_HINT: the class's move, in the word after its slot in the table nodes' region */
static inline uint64_t *hint_slot(const Solver *S, uint64_t ak) { return (uint64_t *)abstract_slot(S, ak) + 1; }

#ifndef TT_PREFETCH
#define TT_PREFETCH 8 /* the children whose table slots a table node fetches ahead */
#endif

/* OPT_ABDADA: the window of a search, mixed into the marks of the nodes it is in.
 * Two threads testing different gammas walk the same positions, and deferring
 * each other's moves there only spoils both orderings (8 cards, seed 3: 740 M
 * nodes for the test at the value beside another test, against 517 M alone);
 * with the window in the mark only threads on the same test defer. */
static inline uint64_t window_salt(int alpha, int beta) {
    return ((uint64_t)(alpha + 128) << 16 | (uint64_t)(beta + 128)) * 0x9E3779B97F4A7C15ULL;
}

/* OPT_ORDER at a table node: the static scores of the moves ms[from..n) (the team to move: team) */
static inline void order_moves(const Solver *S, Move *ms, int from, int n, int team) {
    int opts = OPTS(S);
    for (int i = from; i < n; i++) {
        int hist = (opts & OPT_HISTORY) ? S->history[ms[i].card][team] : 0;
        if ((opts & OPT_KILLER) && ms[i].card == S->killer[S->cards_left]) hist += 2500;
        ms[i].score = (opts & OPT_ORDER2) ? order_score2(S, ms + i, hist) : order_score(S, ms + i, hist);
    }
}

#ifndef CHILDREN_MIN
#define CHILDREN_MIN 16 /* OPT_CHILDREN: the fewest cards left where a table node looks at its children's entries */
#endif

/*
 * OPT_CHILDREN: the moves ms[from..n) reordered by what the table already knows of their
 * children (child_bounds: an entry kept for another path to the same position, or for a
 * pile A that dominates this one): a move whose child is proven to cut the
 * node goes first (its search then ends at the child's probe), one proven to fail goes last
 * (it cannot cut; searched only if nothing else does).  A soft enhanced transposition
 * cut-off: it only orders, so the values cannot change.  From 16 cards left, where a node's
 * few probes cost little beside its subtree: 7 cards, endgames 1-20, 462.2 M nodes against
 * 474.1 M (seeds 21-40: 445.5 M against 458.9 M), 0.963 and 0.984 the time, paired (notebook,
 * "An eighth session"); from 12, 454.6 M but 1.052 the time (the probes wait for memory).
 */
static void child_order(Solver *S, Move *ms, int from, int n, int maximise, int alpha, int beta) {
    for (int i = from; i < n; i++) {
        if (ms[i].score >= 1 << 29) continue; /* the table's or the class's move stays first */
        int lo, hi;
        child_bounds(S, ms + i, &lo, &hi);
        if (maximise ? lo >= beta : hi <= alpha) { ms[i].score += 1 << 27; S->child_proven++; }
        else if (maximise ? hi <= alpha : lo >= beta) { ms[i].score -= 1 << 27; S->child_proven++; }
    }
}

static int ab(Solver *S, int sp, int alpha, int beta) {
    const int alpha_in = alpha, beta_in = beta; /* the window as the parent passed it (ABDADA's mark) */
    S->nodes++;
    S->by_left[S->cards_left]++;
    if (S->nodes >= S->next_check) {
        S->next_check = S->nodes + 100000;
        if (check_interrupt(S)) return 0;
    }
    if (S->aborted) return 0;
    if (S->cards_left == 0) return leaf_value(S, S->pile[0], S->pile[1], S->scope[0] - S->scope[1], beta, PCLS(-1, 1));

    if (S->cards_left <= S->small || ((OPTS(S) & OPT_LAST) && S->cards_left <= 4)) {
        /* no range: values lie in (-inf, inf), and the primiera moves them by 2 at most */
        Range cr = {-S->inf, S->inf, PCLS(-1, 1)};
        uint64_t fc = 0;
        if (OPTS(S) & (OPT_RANGE | OPT_SMALLEQUIV)) {
            /* what the categories can still end at, for cheap bounds in the plain
             * search, and the cards whose suit no longer matters (both only
             * narrow as cards are taken, so they hold in the whole subtree) */
            const Decided *d = decided_cached(S);
            int nap = RULE(S, napola) ? 10 : 0;
            if (OPTS(S) & OPT_RANGE) {
                cr.lo = d->off + d->clo - nap; cr.hi = d->off + d->chi + nap;
                cr.pcls = d->pcls;
            }
            if (OPTS(S) & OPT_SMALLEQUIV) fc = d->freec;
        }
        /* OPT_PARTITION: a bound proven for another position of this one's class */
        if (S->at && S->cards_left >= PARTITION_MIN && beta == alpha + 1)
            return ab_small_part(S, sp, alpha, beta, &cr, fc);
        return ab_small(S, sp, alpha, beta, &cr, fc);
    }
    /* the slot depends on the card locations only: fetch it while the pile summary is computed */
    uint64_t key = 0;
    if (S->use_tt) {
        if (S->tt_entries > S->tt_grow_at && S->tt_stores > S->tt_grow_stores) grow_tt(S);
        key = S->z1 ^ ZMOVER[S->to_move][S->last + 1];
        __builtin_prefetch(bucket_at(S, key, S->cards_left));
    }
    uint64_t ak = 0;
    int ast = 0;
    if (S->at && S->cards_left <= PARTITION_MAX && beta == alpha + 1) {
        /* OPT_PARTITION: the class's slot too, fetched while the table is probed */
        ak = abstract_key(S, &ast);
        __builtin_prefetch(abstract_slot(S, ak));
    }
    int opts = OPTS(S);
    int off = S->scope[0] - S->scope[1];
    uint64_t summary = 0, freec = 0;
    int open = 0, status = PCLS(-1, 1); /* the primiera's range (OPT_PARTITION's class) */
    if (opts & (OPT_SUMMARY | OPT_EQUIV | OPT_BOUNDS | OPT_PARTITION)) {
        const Decided *d = decided_cached(S);
        int dec = d->off, chi = d->chi, clo = d->clo;
        summary = d->summary; freec = d->freec; open = d->open; status = d->pcls;
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
            if (RULE(S, napola)) { hi += 10; lo -= 10; }
            if (hi <= alpha) { S->bound_cuts++; robust_set(S, hi, status); return hi; }
            if (lo >= beta) { S->bound_cuts++; robust_set(S, lo, status); return lo; }
        }
        if (!(opts & OPT_EQUIV)) freec = 0;
    } else {
        summary = S->pile[0];
    }

    /* the moves before the table probes: the children's slots are then fetched while this
     * node's own are still on their way */
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
        /* the children's slots, fetched while this node's own slots are probed and its moves
         * ordered (most nodes search one child) */
        for (int i = 0; i < n && i < TT_PREFETCH; i++) __builtin_prefetch(bucket_at(S, child_key(S, ms + i), S->cards_left - 1));
    }
    uint64_t ttmove = NO_MOVE, check = 0, loc = 0;
    int have = 0, tlo = -TT_NONE, thi = TT_NONE;
    int sdiff = S->scope[0] - S->scope[1];
    if (S->use_tt) {
        loc = S->z2 ^ ZMOVER2[S->to_move][S->last + 1];
        check = loc ^ mix64(summary ^ 0xA5A5A5A5DEADBEEFULL);
        if (sp == 0) { S->root_key = key; S->root_check = check; S->root_keyed = 1; }
        Entry got[2];
        uint64_t keys[2];
        int hit = probe(S, key, check, got, keys);
        int lo = -S->inf, hi = S->inf;
        if (hit >= 0) {
            Entry *e = got + hit;
            have = 1;
            tlo = e->lo; thi = e->hi;
            if (tlo > -TT_NONE) lo = tlo + off;
            if (thi < TT_NONE) hi = thi + off;
            ttmove = entry_move(e);
        }
        if (opts & OPT_DOMINANCE) {
            /* the other piles met with these cards in play: a bound for a pile
             * no better (worse) for A is a lower (upper) bound here too */
            for (int j = 0; j < 2; j++) {
                Entry *x = got + j;
                if (j == hit || keys[j] != key || !key || (x->move >> 54) != (loc >> 54)) continue;
                pile_bounds(S, x, sdiff, &lo, &hi);
                if (ttmove == NO_MOVE) ttmove = entry_move(x);
            }
        }
        if (hit >= 0 || lo > -S->inf || hi < S->inf) {
            if (lo >= beta || lo == hi) { S->tt_hits++; robust_none(S, lo, beta); return lo; }
            if (hi <= alpha) { S->tt_hits++; robust_none(S, hi, beta); return hi; }
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
        }
    }
    int a0 = alpha, b0 = beta;
    if (S->at && S->cards_left <= PARTITION_MAX && beta == alpha + 1) {
        /* OPT_PARTITION: a bound proven for another position of this one's class */
        if (!ak) ak = abstract_key(S, &ast); /* the table narrowed a wider window to a null one */
        if (partition_probe(S, abstract_slot(S, ak), ak, ast, status, alpha, beta)) return S->rb;
    }
    /* the table's move goes first, and the other moves are scored only once it has failed to
     * cut (most times it cuts): the same order, so the same nodes, 0.977 and 0.988 the time
     * (7 cards, paired: notebook, "5 December").  Swapped to the front as the selection below
     * would swap it, so that the others keep the order they had.  So does the class's move
     * (OPT_HINT), the two-ply look (OPT_SHALLOW) left for the others too: the same nodes,
     * 1.3% and 2.6% fewer instructions on endgames 4 and 12 (notebook, "A fifteenth session"). */
    int lazy = 0;
    if (opts & OPT_ORDER) {
        if (ttmove != NO_MOVE)
            for (int i = 0; i < n; i++)
                if ((int)(ttmove & 63) == ms[i].card && (ttmove >> 6) == ms[i].cap) {
                    Move t = ms[0]; ms[0] = ms[i]; ms[i] = t;
                    ms[0].score = 1 << 30;
                    lazy = 1;
                    break;
                }
        if (!lazy && ttmove == NO_MOVE && ak && S->at_hint && S->cards_left > S->small) {
            /* OPT_HINT: no move of this position's own, but one that cut in its class: first,
             * the others scored only once it has failed to cut, as the table's move is */
            uint64_t h = *hint_slot(S, ak);
            if (h && (h & ~HINT_SIG) == (ak & ~HINT_SIG))
                for (int i = 0; i < n; i++)
                    if (move_sig(ms[i].card, ms[i].cap) == (h & HINT_SIG)) {
                        Move t = ms[0]; ms[0] = ms[i]; ms[i] = t;
                        ms[0].score = 1 << 29;
                        S->hint_hits++;
                        lazy = 1;
                        break;
                    }
        }
        if (!lazy) order_moves(S, ms, 0, n, team);
    }
    int shallow = (opts & (OPT_ORDER | OPT_SHALLOW)) == (OPT_ORDER | OPT_SHALLOW) && ttmove == NO_MOVE && n > 1 &&
                  S->cards_left >= SHALLOW_MIN && alpha - off <= SHALLOW_MARGIN && off - beta <= SHALLOW_MARGIN;
    if (shallow && !lazy) {
        shallow_order(S, ms, n);
        S->shallow_orders++;
    }
    int children = (opts & (OPT_ORDER | OPT_CHILDREN)) == (OPT_ORDER | OPT_CHILDREN) && S->use_tt &&
                   S->cards_left >= CHILDREN_MIN && S->cards_left - 1 > S->small;
    if (children && !lazy) child_order(S, ms, 0, n, maximise, alpha, beta);
    int etc = (opts & OPT_ETC) && S->use_tt && sp > 0 && beta == alpha + 1 && S->cards_left >= ETC_MIN &&
              S->cards_left - 1 > S->small;
    if (etc) {
        int v;
        if (etc_cut(S, ms, n, maximise, alpha, beta, &v)) { S->etc_cuts++; robust_none(S, v, beta); return v; }
    }
    uint64_t nodes0 = S->nodes, vain_start = S->in_vain;
    int best = side_worst(S->inf, maximise);
    uint64_t bestmove = NO_MOVE;
    /* OPT_ROOTSIZE: ties at the root go to the move with the bigger subtree (bestsub: bestmove's nodes) */
    int root_ties = sp == 0 && (opts & OPT_ROOTSIZE);
    uint64_t bestsub = 0;
    /* threads sharing the table (ABDADA): near the root, a move whose position
     * another thread is searching waits until the others are searched; by then
     * the table likely holds its result */
    uint64_t *busy = NULL, mark = 0;
    int deferred[64], ndef = 0;
    Twins twins;
    twins.n = 0;
    Robust rob = robust_start(maximise, status);
    if ((opts & OPT_ABDADA) && S->shared && S->root_left - S->cards_left < ABDADA_DEPTH &&
        S->cards_left - 1 > S->small) {
        busy = S->shared->busy;
        mark = key ^ window_salt(alpha_in, beta_in); /* what the parent looks for before searching this node */
        __atomic_store_n(&busy[mark & (BUSY_SLOTS - 1)], mark, __ATOMIC_RELAXED);
    }
    for (int k = 0, i = 0; k < n + ndef; k++) {
        if (k == 1 && lazy) {
            order_moves(S, ms, 1, n, team); /* the table's (or the class's) move did not cut */
            if (shallow) {
                shallow_order(S, ms + 1, n - 1);
                S->shallow_orders++;
            }
            if (children) child_order(S, ms, 1, n, maximise, alpha, beta);
        }
        if (k < n) {
            i = k;
            if ((opts & OPT_ORDER) && !(k == 0 && lazy)) { /* (the others' scores are not made yet) */
                int bi = i;
                for (int j = i + 1; j < n; j++)
                    if (ms[j].score > ms[bi].score) bi = j;
                if (bi != i) { Move t = ms[i]; ms[i] = ms[bi]; ms[bi] = t; }
            }
        } else i = deferred[k - n];
        int quasi = (opts & OPT_QUASI) && (ms[i].card & 3);
        if (quasi && twin_skip(&twins, ms + i, maximise, alpha, beta, &best)) {
            S->quasi_skips++;
            rob.poisoned = 1;
            continue;
        }
        Undo u;
        make(S, ms[i].card, ms[i].cap, &u);
        if (busy && k > 0 && k < n && ndef < 64) {
            uint64_t child = S->z1 ^ ZMOVER[S->to_move][S->last + 1] ^ window_salt(alpha, beta);
            if (__atomic_load_n(&busy[child & (BUSY_SLOTS - 1)], __ATOMIC_RELAXED) == child) {
                unmake(S, &u);
                deferred[ndef++] = i;
                continue;
            }
        }
        uint64_t sub0 = S->nodes, vain0 = S->in_vain;
        int v = ab(S, sp + n, alpha, beta);
        unmake(S, &u);
        if (S->aborted) {
            if (busy) busy_clear(busy, mark);
            return 0;
        }
        if (quasi) twin_add(&twins, ms + i, v);
        robust_add(S, &rob, maximise, v, beta);
        if (maximise ? v > best : v < best) {
            best = v; bestmove = (uint64_t)ms[i].card | ms[i].cap << 6;
            if (root_ties) bestsub = S->nodes - sub0;
            if (maximise && v > alpha) alpha = v;
            if (!maximise && v < beta) beta = v;
        } else if (root_ties && v == best && S->nodes - sub0 > bestsub) {
            /* OPT_ROOTSIZE: a tie at the root (in a null-window test, every move so far
             * failed by the same fail-soft value, often the window's edge): the move whose
             * refutation took the most nodes is the likeliest to reach the next test's target */
            bestmove = (uint64_t)ms[i].card | ms[i].cap << 6; bestsub = S->nodes - sub0;
        }
        if (alpha >= beta) {
            if ((opts & OPT_HISTORY) && !ms[i].cap) S->history[ms[i].card][team] += 1;
            S->cuts++;
            S->killer[S->cards_left] = ms[i].card;
            if (i == 0) S->cut_first++;
            if (k > 0) { /* a late cut-off: the moves before it (all failed) searched in vain, less
                          * what was counted in vain below them already */
                uint64_t w = (sub0 - nodes0) - (vain0 - vain_start);
                int by = lazy && ttmove != NO_MOVE ? 0 : lazy ? 1 : shallow ? 2 : 3;
                S->late_cuts[S->cards_left]++;
                S->vain[S->cards_left] += w;
                S->vain_by_order[by] += w;
                S->in_vain += w;
            }
            break;
        }
    }
    if (busy) busy_clear(busy, mark);
    int rb = robust_child(S, &rob, best, b0); /* after a cut-off: the cutting child's */
    if (alpha < beta) { /* no cut-off: every move was searched */
        rb = rob.acc;
        S->all_nodes[S->cards_left]++;
        S->all_moves[S->cards_left] += (uint64_t)n;
        S->all_hand[S->cards_left] += (uint64_t)popc(S->hand[S->to_move]);
    }
    if (S->use_tt) {
        int rel = best - off;
        if (rel > 100) rel = 100;
        if (rel < -100) rel = -100; /* cannot happen: deal values are small */
        int lo = -TT_NONE, hi = TT_NONE;
        Entry got[2], ne;
        uint64_t keys[2];
        int hit = probe(S, key, check, got, keys); /* the subtree (or another thread) may have moved it */
        if (hit >= 0) { lo = got[hit].lo; hi = got[hit].hi; }
        else if (have) { lo = tlo; hi = thi; }
        if (best <= a0) { if (rel < hi) hi = rel; }
        else if (best >= b0) { if (rel > lo) lo = rel; }
        else lo = hi = rel;
        int w = ilog2(S->nodes - nodes0) + 1;
        Entry *slot;
        if (hit >= 0) {
            slot = bucket_at(S, key, S->cards_left) + hit;
            if (got[hit].work > w) w = got[hit].work;
        } else slot = slot_for(S, key, w, got, keys);
        ne.check = check;
        entry_set(&ne, lo, hi, w, off - sdiff, bestmove, S->pile[0], loc);
        entry_store(slot, key, &ne);
        S->tt_stores++;
    }
    if (rob.poisoned) robust_none(S, best, b0);
    else {
        robust_set(S, rb, status);
        if (ak) partition_store(S, abstract_slot(S, ak), ak, ast, best, a0, b0);
    }
    if (ak && S->at_hint && S->cards_left > S->small && bestmove != NO_MOVE && (maximise ? best >= b0 : best <= a0))
        *hint_slot(S, ak) = (ak & ~HINT_SIG) | move_sig(bestmove & 63, bestmove >> 6); /* OPT_HINT: it cut */
    return best;
}


#endif /* SCOPONE_SEARCH_H */
