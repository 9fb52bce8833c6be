/*
 * What the nodes of both searches share: the twins OPT_QUASI skips, the minimax
 * step, the class bound every search returns beside its value (OPT_PARTITION's
 * bookkeeping), the plain search's range of the categories and the leaves' value.
 */
#ifndef SCOPONE_NODE_H
#define SCOPONE_NODE_H

#include "table.h"

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

#endif /* SCOPONE_NODE_H */
