/*
 * Scoring: the points of final piles, and what the piles already decide
 * (the pile summary of the table key, the cards whose suit no longer matters,
 * the ranges the categories can still end in).
 */
#ifndef SCOPONE_SCORE_H
#define SCOPONE_SCORE_H

#include "bits.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------------ scoring */
static inline int more(int a, int b) { return (a > b) - (b > a); }

static int napola_points(uint64_t pile) {
    int run = 0;
    while (run < 10 && (pile >> (4 * run) & 1)) run++;
    return run >= 3 ? run : 0;
}

/* the larger of each byte of a and b (bytes below 128): no borrow crosses a byte, and
 * bit 7 of a byte of d is set where a's byte is at least b's */
static inline uint32_t byte_max(uint32_t a, uint32_t b) {
#ifdef __SSE2__
    /* one pmaxub on x86-64 (SSE2 is part of its base) */
    return (uint32_t)_mm_cvtsi128_si32(_mm_max_epu8(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b)));
#else
    uint32_t d = ((a | 0x80808080u) - b) & 0x80808080u;
    uint32_t m = (d >> 7) * 0xFFu;
    return (a & m) | (b & ~m);
#endif
}

/* the best primiera value of each suit of a mask, suit st in byte st (0: no card of the
 * suit): five lookups of two ranks each, no branches (the loop over ranks it replaced,
 * with its early exits, was 5% of a 7-card solve's time, most of it in leaf scores) */
static inline uint32_t best_pv_bytes(uint64_t m) {
    uint32_t x = byte_max(PVBYTE[0][m & 255], PVBYTE[1][(m >> 8) & 255]);
    x = byte_max(x, PVBYTE[2][(m >> 16) & 255]);
    x = byte_max(x, PVBYTE[3][(m >> 24) & 255]);
    return byte_max(x, PVBYTE[4][(m >> 32) & 255]);
}

/* a best_pv_bytes word as one int per suit */
static inline void pv_unpack(uint32_t x, int out[4]) {
    for (int st = 0; st < 4; st++) out[st] = (int)(x >> (8 * st) & 255);
}

/* the best primiera value of each suit of a mask, one int per suit */
static inline void best_pv4(uint64_t m, int out[4]) { pv_unpack(best_pv_bytes(m), out); }

/* whether every suit has a card (no byte of best_pv_bytes is 0) */
static inline int pv_complete(uint32_t x) { return ((x - 0x01010101u) & ~x & 0x80808080u) == 0; }

/* the sum of the four suits' values (at most 4 * 21: no carry leaves the top byte) */
static inline int pv_sum(uint32_t x) { return (int)((x * 0x01010101u) >> 24); }

/* primiera point of the final piles: +1 A, -1 B, 0 none */
static int primiera_final(const Solver *S, uint64_t pa, uint64_t pb) {
    uint32_t va = best_pv_bytes(pa), vb = best_pv_bytes(pb);
    int ca = pv_complete(va), cb = pv_complete(vb);
    if (RULE(S, prim_sum) || (ca && cb)) return more(pv_sum(va), pv_sum(vb));
    if (ca != cb) return ca ? 1 : -1;
    return 0;
}

/* points(A) - points(B) of the piles, scope excluded; *prim gets the primiera's share */
static inline int score_parts(const Solver *S, uint64_t pa, uint64_t pb, int *prim) {
    int v = more(popc(pa), popc(pb));
    v += more(popc(pa & DENARI_MASK), popc(pb & DENARI_MASK));
    v += (int)(pa >> SETTEBELLO & 1) - (int)(pb >> SETTEBELLO & 1);
    v += *prim = primiera_final(S, pa, pb);
    if (RULE(S, re_bello)) v += (int)(pa >> RE_BELLO & 1) - (int)(pb >> RE_BELLO & 1);
    if (RULE(S, napola)) v += napola_points(pa) - napola_points(pb);
    return v;
}

/* points(A) - points(B) of the piles, scope excluded */
static inline int score_piles(const Solver *S, uint64_t pa, uint64_t pb) {
    int prim;
    return score_parts(S, pa, pb, &prim);
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
    if (!RULE(S, prim_sum) && (!cana || !canb)) {
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
 * The points a category can still end at for team A: lo with every card still
 * in play going to team B, hi with every one going to A (lo == hi: decided).
 * Shared by decided() and the plain search's narrowing (node.h).
 */
typedef struct { int lo, hi; } Span;

/* a majority (cards, Denari) of a, b held and rem still in play */
static inline Span majority_span(int a, int b, int rem) { return (Span){more(a, b + rem), more(a + rem, b)}; }

/* a single card (the settebello, re bello): its holder's point, else either */
static inline Span holder_span(uint64_t pa, uint64_t pb, int card) {
    int v = (int)(pa >> card & 1) - (int)(pb >> card & 1);
    int none = v == 0; /* (no branch: see free_duplicates) */
    return (Span){v - none, v + none};
}

/* the categories besides primiera, in this order in category_spans()'s output */
enum { CAT_CARDS, CAT_DENARI, CAT_SETTEBELLO, CAT_RE_BELLO };

/*
 * The span of each category besides primiera for piles pa, pb with rem still
 * in play (re bello: {0, 0} when its rule is off, so callers always loop over
 * four and the compiler unrolls it).  The majorities are of the cards in the
 * deal: 21 of 40 cards and 6 of 10 Denari in a whole deal, fewer in a position
 * made without every card.
 */
#define NCAT 4
static inline void category_spans(const Solver *S, uint64_t pa, uint64_t pb, uint64_t rem, Span out[NCAT]) {
    out[CAT_CARDS] = majority_span(popc(pa), popc(pb), popc(rem));
    out[CAT_DENARI] = majority_span(popc(pa & DENARI_MASK), popc(pb & DENARI_MASK), popc(rem & DENARI_MASK));
    out[CAT_SETTEBELLO] = holder_span(pa, pb, SETTEBELLO);
    out[CAT_RE_BELLO] = RULE(S, re_bello) ? holder_span(pa, pb, RE_BELLO) : (Span){0, 0};
}

/*
 * The primiera's span for piles pa, pb with rem still in play, from their
 * best_pv_bytes words va, vb, vr: lo == hi (its decided point) if no play can
 * change it, else the point it can still end at for team A at worst (lo) and
 * at best (hi).  A team's best possible suit values take every card still in
 * play; the least are its pile's.
 */
static inline Span prim_span_of(const Solver *S, uint32_t va, uint32_t vb, uint32_t vr) {
    uint32_t xa = byte_max(va, vr), xb = byte_max(vb, vr);
    int mina = pv_sum(va), minb = pv_sum(vb), maxa = pv_sum(xa), maxb = pv_sum(xb);
    int compa = pv_complete(va), compb = pv_complete(vb), cana = pv_complete(xa), canb = pv_complete(xb);
    int fixed = mina == maxa && minb == maxb;
    if (RULE(S, prim_sum)) {
        if (mina > maxb) return (Span){1, 1};
        if (minb > maxa) return (Span){-1, -1};
        if (fixed) { int p = more(mina, minb); return (Span){p, p}; }
        return (Span){-(maxb > mina), maxa > minb};
    }
    if (!cana && !canb) return (Span){0, 0};
    if (compa && !canb) return (Span){1, 1};
    if (compb && !cana) return (Span){-1, -1};
    if (compa && mina > maxb) return (Span){1, 1};
    if (compb && minb > maxa) return (Span){-1, -1};
    if (compa && compb && fixed) { int p = more(mina, minb); return (Span){p, p}; }
    return (Span){-(canb && (!compa || maxb > mina)), cana && (!compb || maxa > minb)};
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
                   int *cat_hi, int *cat_lo, int *pcls) {
    uint64_t pa = S->pile[0], pb = S->pile[1];
    uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
    int off = 0, open = 0, chi = 0, clo = 0;
    uint64_t sm = 0;
    Span sp[NCAT];
    category_spans(S, pa, pb, rem, sp);
    for (int c = 0; c < NCAT; c++) {
        if (sp[c].lo == sp[c].hi) off += sp[c].lo;
        else { open++; chi += sp[c].hi; clo += sp[c].lo; }
    }
    /* an open majority keeps team A's count in the summary */
    if (sp[CAT_CARDS].lo != sp[CAT_CARDS].hi) sm |= (uint64_t)(popc(pa) + 1);
    int den_done = sp[CAT_DENARI].lo == sp[CAT_DENARI].hi;
    if (!den_done) sm |= (uint64_t)(popc(pa & DENARI_MASK) + 1) << 6;
    if (RULE(S, napola)) sm |= (uint64_t)suit10(pa, 0) << 10;
    /* primiera */
    uint32_t va = best_pv_bytes(pa), vb = best_pv_bytes(pb), vr = best_pv_bytes(rem);
    Span ps = prim_span_of(S, va, vb, vr);
    uint64_t freec = 0;
    if (ps.lo == ps.hi) {
        off += ps.lo;
        freec = rem;
        *pcls = PCLS(ps.lo, ps.lo);
    } else {
        int a[4], b[4];
        pv_unpack(va, a);
        pv_unpack(vb, b);
        open++;
        chi += ps.hi; clo += ps.lo;
        *pcls = PCLS(ps.lo, ps.hi);
        if (OPTS(S) & OPT_CANON) {
            int r[4];
            pv_unpack(vr, r);
            int cana = pv_complete(byte_max(va, vr)), canb = pv_complete(byte_max(vb, vr));
            sm |= canon_primiera(S, a, b, r, cana, canb) << 20;
        }
        for (int st = 0; st < 4; st++) {
            if (!(OPTS(S) & OPT_CANON)) sm |= (uint64_t)(PVLEVEL[a[st]] | PVLEVEL[b[st]] << 4) << (20 + 8 * st);
            /* a card of this suit worth no more than both teams' best changes nothing */
            int lim = a[st] < b[st] ? a[st] : b[st];
            freec |= SCATTER[RANKS_UPTO[lim]] << st;
        }
        freec &= rem;
    }
    /* Denari keep their suit while denari, settebello, re bello or napola are open */
    freec &= ~(1ULL << SETTEBELLO);
    if (!den_done || RULE(S, napola)) freec &= ~DENARI_MASK;
    if (RULE(S, re_bello)) freec &= ~(1ULL << RE_BELLO);
    *summary = sm;
    *freecards = freec;
    *undecided = open;
    *cat_hi = chi;
    *cat_lo = clo;
    return off;
}

/* decided(), remembered per (piles, cards in play): the record is overwritten by later calls */
static inline const Decided *decided_cached(Solver *S) {
    uint64_t pa = S->pile[0], pb = S->pile[1];
    uint64_t rem = S->hand[0] | S->hand[1] | S->hand[2] | S->hand[3] | S->table;
    Decided *d = S->dcache + (mix64(pa * 0x9E3779B97F4A7C15ULL ^ pb) & (DCACHE - 1));
    if (!(d->used && d->pa == pa && d->pb == pb && d->rem == rem)) {
        int open, chi, clo, pcls;
        uint64_t sm, fc;
        int off = decided(S, &sm, &fc, &open, &chi, &clo, &pcls);
        d->pa = pa; d->pb = pb; d->rem = rem; d->summary = sm; d->freec = fc;
        d->off = (int16_t)off; d->open = (int16_t)open; d->chi = (int16_t)chi; d->clo = (int16_t)clo;
        d->pcls = (int16_t)pcls;
        d->used = 1;
    }
    return d;
}


#endif /* SCOPONE_SCORE_H */
