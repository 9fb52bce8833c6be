/*
 * The end of the deal: the last round played out directly (last_round), and the
 * node before it scored from its lines (OPT_OUTCOMES, the outcome table).
 */
#ifndef SCOPONE_LASTROUND_H
#define SCOPONE_LASTROUND_H

#include "node.h"

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

#endif /* SCOPONE_LASTROUND_H */
