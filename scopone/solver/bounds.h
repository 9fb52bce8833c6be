/*
 * Quick sure bounds: how many scope a team can still make, and when none is left.
 */
#ifndef SCOPONE_BOUNDS_H
#define SCOPONE_BOUNDS_H

#include "moves.h"

/* could the seat sweep this table now (a superset: used for sure bounds) */
static inline int can_sweep(const Solver *S, uint64_t table, uint64_t hand) {
    if (!table || !hand) return 0;
    if (RULE(S, apt) && (hand & 15) && (RULE(S, asso_scopa) || RULE(S, asso_takes_asso))) return 1;
    int sum = table_sum(table);
    if (cards_of_value(hand, sum)) return 1;
    if (RULE(S, quindici) && cards_of_value(hand, 15 - sum)) return 1;
    return 0;
}

static inline int can_sweep_now(const Solver *S, int seat) { return can_sweep(S, S->table, S->hand[seat]); }

/*
 * OPT_TIGHT, in the plain search's bounds [*lo, *hi] (with plays_a, plays_b: the
 * plays counted as possible scope): the mover (team B if odd) holding hand makes
 * no scopa on this table if it cannot sweep it.  A matter of ranks, so it holds
 * for the whole partition class.  Looked at only where that one scopa decides
 * the cut (looking at every node cost what it saved, 2 December).
 */
static inline void mover_sweep_bound(const Solver *S, int mover, uint64_t table, uint64_t hand, int plays_a,
                                     int plays_b, int alpha, int beta, int *hi, int *lo) {
    if (!(OPTS(S) & OPT_TIGHT)) return;
    if (mover & 1) {
        if (*lo == beta - 1 && plays_b > 0 && !can_sweep(S, table, hand)) (*lo)++;
    } else if (*hi == alpha + 1 && plays_a > 0 && !can_sweep(S, table, hand)) (*hi)--;
}

/* an upper bound on how many disjoint (card laid by seat b on an empty table,
 * card of seat a that sweeps it) pairs exist */
static inline int sweep_pairs(const Solver *S, int b, int a) {
    uint64_t cb = rank_counts(S->hand[b]), ca = rank_counts(S->hand[a]);
    /* each rank's minimum at once: bit 3 of a nibble of d is set where cb's count is at least ca's
     * (counts are at most 4, so no borrow crosses a nibble); the minima summed by bytes, then by
     * one multiplication (at most 40: no carry reaches byte 4); no loop and no branch (notebook,
     * "A thirteenth session") */
    uint64_t d = ((cb | 0x8888888888ULL) - ca) & 0x8888888888ULL, ge = (d >> 3) * 15;
    uint64_t mn = (ca & ge) | (cb & ~ge & 0xFFFFFFFFFFULL);
    uint64_t s = (mn & 0x0F0F0F0F0FULL) + (mn >> 4 & 0x0F0F0F0F0FULL);
    int m = (int)((s * 0x0101010101ULL) >> 32 & 255);
    if (RULE(S, quindici))
        for (int r = 4; r < 10; r++) { /* rank r+1 swept by rank 14-r as well */
            int x = (int)(cb >> (4 * r) & 15), z = (int)(ca >> (4 * (13 - r)) & 15);
            m += x < z ? x : z;
        }
    if (RULE(S, apt) && (RULE(S, asso_scopa) || RULE(S, asso_takes_asso))) m += popc(S->hand[a] & 15);
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
static inline int no_scopa_in(const Solver *S, uint64_t hands, uint64_t table) {
    if (!table || !hands || RULE(S, quindici) || (RULE(S, apt) && (hands & 15))) return 0;
    /* the top card's rank, (63 - clz) >> 2, is 15 - (clz >> 2): compared without the subtractions */
    return __builtin_clzll(table) >> 2 < __builtin_clzll(hands) >> 2;
}

static inline int no_scopa_left(const Solver *S) {
    return no_scopa_in(S, S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3], S->table);
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
    if ((OPTS(S) & OPT_NOSCOPA) && no_scopa_left(S)) return 0;
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


#endif /* SCOPONE_BOUNDS_H */
