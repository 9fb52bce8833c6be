/*
 * Tables built once at import and bit tricks on 40-bit card masks.
 */
#ifndef SCOPONE_BITS_H
#define SCOPONE_BITS_H

#include "solver.h"

/* ------------------------------------------------------------------ tables */
static uint64_t Z1[40][5], Z2[40][5];
static uint64_t ZMOVER[4][3], ZMOVER2[4][3]; /* the seat to move and the last capturer (-1, 0, 1) */
static uint64_t ZA[40][5]; /* OPT_PARTITION: a Denari card at a place; any other card by its rank (summed, not xored:
                            * two cards of one rank in one place must not cancel) */
static uint8_t SUBS[16][5][6], NSUBS[16][5]; /* subsets of a nibble by size */
static uint8_t LOWBITS[16][5];                /* the k lowest bits of a nibble */
static uint8_t GATHER[4][256];                /* 2 suit bits of one byte (2 ranks) */
static uint8_t PVLEVEL[22];                   /* primiera value -> level 0..8 */
static uint16_t RANKS_UPTO[22];               /* ranks (bit r-1) whose primiera value <= v */
static uint64_t SCATTER[1024];                /* 10-bit Denari set -> 40-bit mask (shift for a suit) */
static uint32_t PVBYTE[5][256];               /* byte k of a mask (ranks 2k+1, 2k+2): per suit (byte st) the best
                                               * primiera value of those two ranks */
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
    for (int r = 0; r < 10; r++)
        for (int l = 0; l < 5; l++) {
            ZA[4 * r][l] = splitmix(&s);
            ZA[4 * r + 1][l] = ZA[4 * r + 2][l] = ZA[4 * r + 3][l] = splitmix(&s);
        }
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
    for (int v = 0; v < 22; v++)
        for (int r = 1; r <= 10; r++)
            if (PV[r] <= v) RANKS_UPTO[v] |= (uint16_t)(1 << (r - 1));
    for (int m = 0; m < 1024; m++)
        for (int r = 0; r < 10; r++)
            if (m >> r & 1) SCATTER[m] |= 1ULL << (4 * r);
    for (int k = 0; k < 5; k++)
        for (int b = 0; b < 256; b++)
            for (int st = 0; st < 4; st++) {
                int v = 0;
                if (b >> st & 1) v = PV[2 * k + 1];
                if ((b >> (4 + st) & 1) && PV[2 * k + 2] > v) v = PV[2 * k + 2];
                PVBYTE[k][b] |= (uint32_t)v << (8 * st);
            }
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


#endif /* SCOPONE_BITS_H */
