/*
 * Move generation from the capture patterns, make/unmake, and move ordering.
 */
#ifndef SCOPONE_MOVES_H
#define SCOPONE_MOVES_H

#include "score.h"

/* ------------------------------------------------------------------ moves */
static inline int sweep_scopa(const Solver *S, int value) {
    return !(RULE(S, apt) && value == 1 && !RULE(S, asso_scopa));
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

/* card c takes one card of rank r + 1 from the table, each in turn (of the cards whose suit
 * no longer matters, freet, only the first when equiv): the capture of a card of its own
 * rank, the commonest, without expand's walk */
static inline int take_one_of_rank(int c, uint64_t table, uint64_t freet, int r, int equiv,
                                   Move *out, int n) {
    uint64_t same = table & (15ULL << (4 * r));
    int took_free = 0;
    while (same) {
        int b = __builtin_ctzll(same);
        same &= same - 1;
        if (equiv && (freet >> b & 1)) {
            if (took_free) continue;
            took_free = 1;
        }
        out[n].card = c; out[n].cap = 1ULL << b; n++;
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
    if (RULE(S, apt) && v == 1) {
        if (RULE(S, asso_takes_asso) && (table & 15)) {
            n = take_one_of_rank(c, table, freet, 0, equiv, out, n);
        } else if (table) {
            out[n].card = c; out[n].cap = table; n++;
        }
    } else if (RULE(S, strict) && !RULE(S, quindici) && (table >> (4 * (v - 1)) & 15)) {
        /* priority: a card of the same rank on the table must be taken alone */
        n = take_one_of_rank(c, table, freet, v - 1, equiv, out, n);
    } else {
        const uint64_t *pp = S->pat[v];
        unsigned row = S->fit_at[v] + (tr & S->fit_mask[v]);
        const uint64_t *fit = S->fit[row];
        int single_found = 0;
        /* (no pattern fits: no capture, and the row is not read) */
        if (S->fitnz[row >> 6] >> (row & 63) & 1)
        for (int w = 0; w < 2; w++)
        for (uint64_t bits = fit[w]; bits; bits &= bits - 1) {
            uint64_t p = pp[64 * w + __builtin_ctzll(bits)];
            if (((tc - p) & 0x8888888888ULL) != 0x8888888888ULL) continue;
            int single = (p & (p - 1)) == 0 && (__builtin_ctzll(p) & 3) == 0; /* one card */
            if (RULE(S, strict)) {
                if (single_found && !single) continue;
                if (single && !single_found) { single_found = 1; n = n0; }
            }
            /* every rank of the pattern on the table as many times as it asks: one capture, the
             * whole of those ranks (most patterns: expand's walk cost 6% of a solve) */
            uint64_t nibs = (p | p >> 1 | p >> 2) & 0x1111111111ULL; /* a count is at most 4: bits 0-2 */
            nibs *= 15;
            if (((tc & ~0x8888888888ULL) & nibs) == p) {
                out[n].card = c; out[n].cap = table & nibs; n++;
                continue;
            }
            n = expand(table, freet, p, 0, 0, c, out, n, equiv);
            if (n >= MOVE_STACK / 2) return -1;
        }
    }
    if (n == n0) { out[n].card = c; out[n].cap = 0; n++; }
    return n;
}

static inline unsigned table_ranks(uint64_t table) {
    /* bit r - 1: a card of rank r.  Each nibble folded to its low bit, then the ten bits
     * gathered by halves: pairs in a byte, fours in 16 bits, eights in 32, all ten */
    uint64_t x = (table | table >> 1 | table >> 2 | table >> 3) & 0x1111111111ULL;
    x = (x | x >> 3) & 0x0303030303ULL;
    x = (x | x >> 6) & 0x000F000F000FULL;
    x = (x | x >> 12) & 0x000000FF000000FFULL;
    return (unsigned)((x | x >> 24) & 0x3FF);
}

/* the cards of hand that are another of the interchangeable cards (freec: those whose suit no
 * longer matters) of a rank whose lowest such card in hand is played: each is skipped.  A mask
 * made once a node, not a test per card (each free card's nibble or-ed into a prefix: a card is
 * a duplicate where a lower bit of its nibble is free); and no branch on whether a card is
 * free, which goes either way on data (a quarter of it mispredicted by valgrind's model).  This
 * and the other selects written without a branch in the plain search took 0.953 the time
 * (notebook, "A twelfth session"). */
static inline uint64_t free_duplicates(uint64_t freec, uint64_t hand) {
    uint64_t x = freec & hand;
    uint64_t p = x | (x << 1 & 0xEEEEEEEEEEULL);
    p |= p << 2 & 0xCCCCCCCCCCULL;
    return x & p << 1 & 0xEEEEEEEEEEULL;
}

/* legal moves of the seat to move (equivalent ones dropped when freec != 0) */
static inline __attribute__((always_inline)) int gen_moves(const Solver *S, Move *out, uint64_t freec) {
    uint64_t hand = S->hand[S->to_move], table = S->table;
    uint64_t tc = rank_counts(table) | 0x8888888888ULL;
    int equiv = freec != 0;
    int n = 0;
    unsigned tr = table_ranks(table);
    hand &= ~free_duplicates(freec, hand);
    while (hand) {
        int c = __builtin_ctzll(hand);
        hand &= hand - 1;
        n = card_moves(S, c, table, tr, tc, freec & table, equiv, out, n);
        if (n < 0 || n >= MOVE_STACK / 2) return -1;
    }
    return n;
}

/* --------------------------------------------------------------- make/unmake */
typedef struct {
    uint64_t hand, table, pa, pb, z1, z2, za;
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
        if (!*table && !last_play && (sweep_scopa(S, (card >> 2) + 1) || (RULE(S, asso_takes_asso) && (cap & 15))))
            scope[team]++;
    } else {
        *table |= bit;
    }
    if (last_play && *table && *last >= 0) { /* the leftovers go to the last capturer */
        pile[*last] |= *table;
        *table = 0;
    }
}

/* a play.  `exact`: update the hashes of the exact card locations (z1, z2) as well as za; the plain
 * search reads only za (the class key) unless smalltt keys its table on them (measured: 6 cards,
 * endgames 1-10, 0.988 the time, paired).  Without it z1 and z2 are neither kept in u nor changed,
 * and unmake_play with the same `exact` leaves them alone too */
static inline __attribute__((always_inline)) void make_play(Solver *S, int card, uint64_t cap, Undo *u, int exact) {
    int seat = S->to_move;
    u->hand = S->hand[seat]; u->table = S->table; u->pa = S->pile[0]; u->pb = S->pile[1];
    if (exact) { u->z1 = S->z1; u->z2 = S->z2; }
    u->za = S->za; u->s0 = S->scope[0]; u->s1 = S->scope[1]; u->last = S->last;
    S->hand[seat] &= ~(1ULL << card);
    S->za -= ZA[card][seat];
    if (exact) { S->z1 ^= Z1[card][seat]; S->z2 ^= Z2[card][seat]; }
    /* the table's hash: the captured cards leave it, a laid card joins it */
    for (uint64_t m = cap; m; m &= m - 1) {
        int x = __builtin_ctzll(m);
        S->za -= ZA[x][4];
        if (exact) { S->z1 ^= Z1[x][4]; S->z2 ^= Z2[x][4]; }
    }
    if (!cap) { S->za += ZA[card][4]; if (exact) { S->z1 ^= Z1[card][4]; S->z2 ^= Z2[card][4]; } }
    S->cards_left--;
    apply_play(S, card, cap, seat & 1, S->cards_left == 0, &S->table, S->pile, S->scope, &S->last);
    S->to_move = (seat + 1) & 3;
}

static inline void make(Solver *S, int card, uint64_t cap, Undo *u) { make_play(S, card, cap, u, 1); }

/* undoes make_play(..., exact) */
static inline __attribute__((always_inline)) void unmake_play(Solver *S, const Undo *u, int exact) {
    S->to_move = (S->to_move + 3) & 3;
    S->hand[S->to_move] = u->hand; S->table = u->table; S->pile[0] = u->pa; S->pile[1] = u->pb;
    if (exact) { S->z1 = u->z1; S->z2 = u->z2; }
    S->za = u->za; S->scope[0] = u->s0; S->scope[1] = u->s1; S->last = u->last;
    S->cards_left++;
}

static inline void unmake(Solver *S, const Undo *u) { unmake_play(S, u, 1); }

/* the sum of the values of the table's cards: each card counts 1 plus its rank index (bits
 * 2-5 of its bit), and the bits of the rank index are summed by masks, without a loop over the
 * cards (the loop's exit was mispredicted often enough to show in profiles) */
static inline int table_sum(uint64_t table) {
    return popc(table) + popc(table & 0xF0F0F0F0F0ULL) + 2 * popc(table & 0x00FF00FF00ULL) +
           4 * popc(table & 0xFFFF0000ULL) + 8 * popc(table & 0xFF00000000ULL);
}

/* the cards of hand worth v (none unless 1 <= v <= 10): those that take a table summing to v whole */
static inline uint64_t cards_of_value(uint64_t hand, int v) {
    uint64_t ok = (unsigned)(v - 1) < 10u; /* (no branch on the table's sum: see free_duplicates) */
    return hand & 15ULL << (4 * (v - 1) & 63) & (0 - ok);
}

/* whether the seat could sweep this table (approximate: for move ordering only) */
static inline int sweepable(const Solver *S, uint64_t table, int seat) {
    if (!table) return 0;
    uint64_t hand = S->hand[seat];
    if (RULE(S, apt) && (hand & 15)) return 1;
    int sum = table_sum(table);
    int need = RULE(S, quindici) ? 15 - sum : sum;
    return cards_of_value(hand, need) != 0;
}

/*
 * Ordering score of a move (higher first): the static order of the table nodes
 * below the look's (SHALLOW_MIN), and the look's tie-break above.  Captures first,
 * by the cards and Denari taken, a sweep first of all; then lay-downs, the least
 * primiera value first; a move after which the next seat can sweep is moved down.
 * A lay-down the partner can take goes before the others, but one the next
 * opponent can take is not moved down (its forced reply often makes the cheaper
 * proof).  Those weights (80 a Denari taken, 800 for a sweep left to the next
 * seat, 0 for a lay-down the next opponent takes; 30, 1,500 and 200 before),
 * 7 cards, `python benchmarks/mtd.py --shifts=0`: 429.8 M nodes on endgames 1-20
 * against 450.8 M, 0.967 the time paired; on 21-40 and 41-60, which they were not
 * chosen on, 382.8 M against 380.7 M and 479.6 M against 499.0 M (notebook, "A
 * twentieth session").
 */
static int order_score(const Solver *S, const Move *m, int hist) {
    int card = m->card;
    uint64_t cap = m->cap;
    int next = (S->to_move + 1) & 3;
    int s;
    if (cap) {
        uint64_t taken = cap | 1ULL << card;
        s = 1000 + 40 * popc(taken) + 80 * popc(taken & DENARI_MASK);
        if (taken >> SETTEBELLO & 1) s += 400;
        uint64_t left = S->table & ~cap;
        if (!left) {
            if (S->cards_left > 1) s += 3000;
        } else if (sweepable(S, left, next)) s -= 800;
    } else {
        s = -PV[(card >> 2) + 1] - ((DENARI_MASK >> card & 1) ? 30 : 0);
        if (card == SETTEBELLO) s -= 400;
        if (sweepable(S, S->table | 1ULL << card, next)) s -= 800;
        else if (!(S->hand[next] >> (card & ~3) & 15) && (S->hand[(next + 1) & 3] >> (card & ~3) & 15))
            s += 100; /* the partner may take it, the next opponent cannot */
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

/*
 * OPT_SHALLOW: near the root the static order above often puts a move first
 * that does not cut, and there the move searched in vain is a big subtree
 * (a one-off count: a perfect order at the table nodes from 20 cards left would
 * save up to 23 M of a 49 M 7-card solve).  A two-ply minimax (the move, then
 * the next seat's best reply) scored on the piles sees the reply the static
 * order only guesses at.  The score is for team A, in hundredths of a point:
 * a scopa or the settebello 100, a card 5, a Denari 15, a seven 10, a six 4
 * (weights that varied by 2x moved the nodes by 2%: what matters is seeing
 * the reply, not the weights); then the threats of the seat to move after the
 * reply: a sweep 50, the settebello on the table and a seven in hand 60 (on
 * the 20 benchmark endgames at 7 cards, 891 M nodes without the threats,
 * 855 M with the sweep, 847 M with both; a threat on the table's Denari cost
 * nodes).
 */
#ifndef SHALLOW_MIN
#define SHALLOW_MIN 18 /* cards left from which table nodes order this way (at 14 and below it costs more than it saves) */
#endif
/* ... and only where the window is within SHALLOW_MARGIN of the points decided so far.  A
 * test far from them (the bounds a time limit proves on a full deal, 10 points out) is
 * settled by the sure bounds a few plies down whatever the order, and there the look cost
 * more than it saved: on a full deal, two threads, a minute proved -12 .. +9 with the look
 * at every node, -10 .. +9 without.  At 7 and 8 cards it drops next to no look (7 cards,
 * endgames 1-10: 296.5 M -> 296.4 M nodes; a margin of 2: 307.8 M). */
#ifndef SHALLOW_MARGIN
#define SHALLOW_MARGIN 4
#endif
static int shallow_score(const Solver *S, int sdiff0) {
    uint64_t pa = S->pile[0], pb = S->pile[1];
    /* the scope made since the node ordered (sdiff0: the difference there), so that no
     * score so far, however big, can overflow the ordering score */
    int v = 100 * (S->scope[0] - S->scope[1] - sdiff0);
    v += 5 * (popc(pa) - popc(pb));
    v += 15 * (popc(pa & DENARI_MASK) - popc(pb & DENARI_MASK));
    v += 100 * ((int)(pa >> SETTEBELLO & 1) - (int)(pb >> SETTEBELLO & 1));
    v += 10 * (popc(pa >> 24 & 15) - popc(pb >> 24 & 15)); /* sevens */
    v += 4 * (popc(pa >> 20 & 15) - popc(pb >> 20 & 15));  /* sixes */
    int threat = 0;
    if (S->cards_left > 1 && sweepable(S, S->table, S->to_move)) threat += 50;
    if ((S->table >> SETTEBELLO & 1) && (S->hand[S->to_move] >> 24 & 15)) threat += 60;
    return (S->to_move & 1) ? v - threat : v + threat;
}

/* the next seat's best reply to the position reached, as shallow_score sees it after it */
static int shallow_reply(Solver *S, Move *ms, int sdiff0) {
    int n = gen_moves(S, ms, 0);
    if (n <= 0) return shallow_score(S, sdiff0); /* (never at SHALLOW_MIN - 1 cards left and more) */
    int maximise = (S->to_move & 1) == 0;
    int best = maximise ? -1000000 : 1000000;
    for (int i = 0; i < n; i++) {
        Undo u;
        make(S, ms[i].card, ms[i].cap, &u);
        int v = shallow_score(S, sdiff0);
        unmake(S, &u);
        if (maximise ? v > best : v < best) best = v;
    }
    return best;
}

/* OPT_SHALLOW: the moves ms[0..n) scored by the two-ply minimax, for the mover,
 * the static score breaking ties; moves scored from the tables (>= 1 << 29) keep theirs */
static void shallow_order(Solver *S, Move *ms, int n) {
    int sign = (S->to_move & 1) == 0 ? 1 : -1, sdiff0 = S->scope[0] - S->scope[1];
    for (int i = 0; i < n; i++) {
        if (ms[i].score >= 1 << 29) continue;
        Undo u;
        make(S, ms[i].card, ms[i].cap, &u);
        int v = shallow_reply(S, ms + n, sdiff0);
        unmake(S, &u);
        ms[i].score = sign * v * 8192 + ms[i].score;
    }
}


#endif /* SCOPONE_MOVES_H */
