/*
 * The search: fail-soft alpha-beta with the transposition table (ab) above
 * SMALL_CARDS cards left, the plain search (plain.h) below.
 */
#ifndef SCOPONE_SEARCH_H
#define SCOPONE_SEARCH_H

#include "plain.h"

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

#ifndef ABDADA_DEPTH
#define ABDADA_DEPTH 6 /* OPT_ABDADA: plies from the root where threads mark the nodes they search */
#endif

/* the node `key` is no longer searched by this thread (unless another marked it since) */
static inline void busy_clear(uint64_t *busy, uint64_t key) {
    uint64_t k = key;
    __atomic_compare_exchange_n(&busy[key & (BUSY_SLOTS - 1)], &k, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
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
