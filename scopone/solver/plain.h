/*
 * The plain search of the last SMALL_CARDS cards (ab_small): no transposition
 * table (but OPT_SMALLTT's small one), the moves made card by card, the bounds of
 * the position's class (OPT_PARTITION).
 */
#ifndef SCOPONE_PLAIN_H
#define SCOPONE_PLAIN_H

#include "lastround.h"

#ifndef SMALLBOUNDS_MIN
#define SMALLBOUNDS_MIN 5 /* OPT_SMALLBOUNDS: the fewest cards left where a plain node bounds the categories by every card in play */
#endif

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

#endif /* SCOPONE_PLAIN_H */
